/**
 * The twin's services for service tests and the bench: the layers a test names, over a database
 * migrated for accounts, models and the twin, the real Models bound to a scripted server, the
 * event bus, the twin's settings and the ports the test gives (TwinBindings, InsightSignals...).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { accountMigrations } from "../../extensions/accounts/migrations.ts"
import { EventBusLive } from "../../host/events.ts"
import { databaseLayer } from "../../kernel/database.ts"
import { Settings } from "../../kernel/settings.ts"
import { modelMigrations } from "../../extensions/models/migrations.ts"
import { ModelsTest } from "../../extensions/models/test-layer.ts"
import { twinMigrations } from "../../extensions/twin/migrations.ts"
import { TwinSettings, type TwinSettingsShape } from "../../extensions/twin/settings.ts"

export const twinServices = <A, E, R, P>(
  services: Layer.Layer<A, E, R>,
  ports: Layer.Layer<P>,
  modelsUrl: string,
  settings: Partial<TwinSettingsShape> = {},
  /** The database file; in memory unless given (the bench uses a real file). */
  filename = ":memory:"
) =>
  services.pipe(
    Layer.provideMerge(Layer.mergeAll(ports, ModelsTest(modelsUrl), EventBusLive, TwinSettings.layer(settings))),
    Layer.provideMerge(databaseLayer({ ...accountMigrations, ...modelMigrations, ...twinMigrations }, { filename })),
    Layer.provide(Settings.layerWith({}))
  )

/** Ada, a being the twin's rows can belong to. */
export const ada = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`INSERT INTO beings (id, handle, display_name, created_at) VALUES ('ada', 'ada', 'Ada', '2030-01-01T00:00:00.000Z')`
)

/** Lets a timer fiber (the backfill, the reflection rounds) reach its sleep, so moving the TestClock wakes it. */
export const untilAsleep = Effect.gen(function* () {
  while (Chunk.isEmpty(yield* TestClock.sleeps())) yield* Effect.yieldNow()
})
