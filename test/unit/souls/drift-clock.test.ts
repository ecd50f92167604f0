/**
 * The mood relaxes with time read from Effect's Clock: a soul's service over an in-memory
 * database, driven by TestClock. After one half-life the mood is halfway back to rest.
 */
import { describe, expect, it } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { accountMigrations } from "../../../extensions/accounts/migrations.ts"
import { soulMigrations } from "../../../extensions/souls/migrations.ts"
import { Souls } from "../../../extensions/souls/souls.ts"
import { MOOD_HALF_LIFE_MINUTES, restingMood } from "../../../extensions/souls/mood.ts"
import { affectOf } from "../../../extensions/souls/affect.ts"

const souls = Souls.Default.pipe(
  Layer.provideMerge(databaseLayer({ ...accountMigrations, ...soulMigrations }, { filename: ":memory:" })),
  Layer.provide(Settings.layerWith({}))
)

const owner = { id: "b1", displayName: "Ada" }

describe("drift on the Clock", () => {
  it.effect("moves the mood toward the event's affect, then halfway back to rest after one half-life", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO beings (id, handle, display_name, created_at) VALUES ('b1', 'ada', 'Ada', '1970-01-01T00:00:00.000Z')`
      const service = yield* Souls
      const start = yield* service.current(owner)
      const rest = restingMood(start.personality)
      const event = "Awful, terrible, horrible news. I am devastated."
      expect(affectOf(event).valence).toBeLessThan(-0.9)

      const drifted = yield* service.drift(owner, { event })
      expect(drifted.mood.valence).toBeLessThan(rest.valence - 0.4)
      const gap = drifted.mood.valence - rest.valence

      yield* TestClock.adjust(`${MOOD_HALF_LIFE_MINUTES} minutes`)
      const later = yield* service.current(owner)
      expect(later.mood.valence - rest.valence).toBeCloseTo(gap / 2, 2)

      yield* TestClock.adjust("3 days")
      const rested = yield* service.current(owner)
      expect(rested.mood.valence).toBeCloseTo(rest.valence, 2)
      expect(rested.mood.label).toBe(rest.label)
    }).pipe(Effect.provide(souls))
  )
})
