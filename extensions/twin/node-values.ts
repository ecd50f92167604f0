/** The twin's NodeValues port over the node's `node_meta` table (where the auth feature keeps its cookie key). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { NodeValues } from "./ports.ts"
import { NodeMeta } from "../accounts/contract/being-registry.ts"

export const NodeValuesLive = Layer.effect(
  NodeValues,
  Effect.map(NodeMeta, (meta) => ({ keep: meta.keep }))
)
