/** The twin's NodeValues port over the node's `node_meta` table (where the auth feature keeps its cookie key). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { NodeValues } from "./ports.ts"
import { NodeMetaRepository } from "../accounts/repositories/node-meta.ts"

export const NodeValuesLive = Layer.effect(
  NodeValues,
  Effect.map(NodeMetaRepository, (meta) => ({ keep: (key: string, value: string) => meta.keep({ key, value }) }))
).pipe(Layer.provide(NodeMetaRepository.Default))
