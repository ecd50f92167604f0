/**
 * The twin as the node lists it: its services with their ports bound (the model bindings) and
 * the Models they call, plus the embedding backfill running in the node's scope.
 */
import * as Layer from "effect/Layer"
import { MemoryBackfill } from "../../extensions/twin/backfill.ts"
import { Memories } from "../../extensions/twin/memories.ts"
import { ModelsLive } from "../llm/models.ts"
import { TwinBindingsLive } from "./bindings.ts"

export const twinFeature = Layer.mergeAll(Memories.Default, MemoryBackfill.Default).pipe(
  Layer.provide(Layer.mergeAll(TwinBindingsLive, ModelsLive))
)
