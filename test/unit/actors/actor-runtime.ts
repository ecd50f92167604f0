/** The actor runtime over a fresh in-memory SQLite database, for tests in this folder. */
import * as Layer from "effect/Layer"
import { actorsLayer, type ShardingConfigShape } from "../../../kernel/actors/index.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"

export const database = databaseLayer({}, { filename: ":memory:" }).pipe(Layer.provide(Settings.layerWith({})))

export const actorRuntime = (overrides: Partial<ShardingConfigShape> = {}) =>
  actorsLayer(overrides).pipe(Layer.provideMerge(database))
