/**
 * A provider's cadence (cadence.ts) on the TestClock: a connected being's connection is synced at
 * once, then every `cadenceMs`; failed passes put the next off, doubling with each failure in a
 * row, and a good pass goes back to the cadence; a connection whose sync is already running is
 * left to it; a provider without a cadence is never synced by the node. Nothing sleeps for real.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as TestClock from "effect/TestClock"
import { SyncCadence } from "../../../extensions/twin/cadence.ts"
import { PluginSyncs } from "../../../extensions/twin/plugin-syncs.ts"
import { RemoteSyncs, TwinBindings, TwinFolders, type RemoteSync } from "../../../extensions/twin/ports.ts"
import { ConnectionsRepository } from "../../../extensions/twin/repositories/connections-repository.ts"
import { Memories } from "../../../extensions/twin/memories.ts"
import { ada, twinServices } from "../../support/twin.ts"

const hour = 3_600_000

/**
 * A remote provider whose passes are scripted: `true` answers an item, `false` fails; each pass is noted with the
 * clock's time.
 */
const scripted = (
  provider: string,
  cadenceMs: number | null,
  script: ReadonlyArray<boolean>,
  pulls: Array<number>
): RemoteSync => ({
  provider,
  title: provider,
  icon: "",
  activity: "learned",
  configured: true,
  unconfigured: "",
  connect: "",
  cadenceMs,
  pull: () =>
    Effect.gen(function* () {
      pulls.push(yield* TestClock.currentTimeMillis)
      const ok = script[Math.min(pulls.length - 1, script.length - 1)]
      if (!ok) return yield* Effect.fail(new Error("the diary service is down"))
      return { items: [{ id: `entry-${pulls.length}`, text: `Entry ${pulls.length}` }] }
    })
})

const noFolder = {
  rootFor: () => null,
  check: () => Effect.die("no folder in this test"),
  textFiles: () => Effect.die("no folder in this test"),
  readFile: () => Effect.die("no folder in this test"),
  readText: () => Effect.succeed(null)
}

const cadence = (remotes: ReadonlyArray<RemoteSync>) =>
  twinServices(
    Layer.mergeAll(SyncCadence.Default, Memories.Default, ConnectionsRepository.Default),
    Layer.mergeAll(
      Layer.succeed(TwinBindings, {
        embed: { available: false, model: "none", leavesDevice: false },
        cheapAvailable: false
      }),
      Layer.succeed(TwinFolders, noFolder),
      Layer.succeed(RemoteSyncs, remotes),
      PluginSyncs.none
    ),
    "http://127.0.0.1:9"
  )

/** Connects Ada to each provider, before the cadence's first round. */
const connected = (providers: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    yield* ada
    const repository = yield* ConnectionsRepository
    for (const provider of providers) {
      yield* repository.create({
        id: `conn-${provider}`,
        beingId: "ada",
        provider,
        label: provider,
        status: "connected",
        meta: {},
        createdAt: new Date(0).toISOString(),
        secret: null
      })
    }
  })

/** Moves the clock an hour at a time (the cadence's rounds, each minute, run on the way). */
const hoursPass = (hours: number) =>
  Effect.gen(function* () {
    for (let step = 0; step < hours * 60; step++) {
      yield* TestClock.adjust(60_000)
      // The passes a round started are fibers of their own: let them finish before the next round.
      for (let turn = 0; turn < 10; turn++) yield* Effect.yieldNow()
    }
  })

describe("a provider's cadence", () => {
  it.scoped("syncs a connection at once, then every cadenceMs; failures back off, doubling; a good pass resets", () => {
    const pulls: Array<number> = []
    const diary = scripted("diary", hour, [true, true, false, false, false, true, true], pulls)
    const manual = scripted("manual", null, [true], [])
    const zero = scripted("zero", 0, [true], [])
    return Effect.gen(function* () {
      yield* connected(["diary", "manual", "zero"])
      yield* SyncCadence
      yield* hoursPass(19)
      // Connected after the node started: seen by the next round, a minute on.
      expect(pulls[0]).toBe(60_000)
      // Then 1h: done; 2h: fails; +2h (4h) fails, +4h (8h) fails, +8h (16h) works, +1h (17h) works...
      expect(pulls.slice(0, 8).map((at) => (at - pulls[0]!) / hour)).toEqual([0, 1, 2, 4, 8, 16, 17, 18])
      const found = yield* (yield* Memories).search("ada", {})
      expect(found.memories.map((memory) => memory.source)).toContain("diary:entry-1")
      const row = Option.getOrThrow(yield* (yield* ConnectionsRepository).find({ beingId: "ada", provider: "manual" }))
      expect(row.syncStatus).toBe("idle")
      expect(
        Option.getOrThrow(yield* (yield* ConnectionsRepository).find({ beingId: "ada", provider: "zero" })).syncStatus
      ).toBe("idle")
    }).pipe(Effect.provide(cadence([diary, manual, zero])))
  })

  it.scoped("leaves a connection whose sync is running to it, and syncs none that is not connected", () => {
    const pulls: Array<number> = []
    const diary = scripted("diary", hour, [true], pulls)
    return Effect.gen(function* () {
      yield* connected(["diary"])
      const repository = yield* ConnectionsRepository
      const row = Option.getOrThrow(yield* repository.find({ beingId: "ada", provider: "diary" }))
      // A pass started by hand that has not finished, its process holding its lease.
      yield* repository.startSync({
        ...row,
        syncStatus: "running",
        syncStartedAt: new Date(0).toISOString(),
        syncClaimer: "by hand",
        syncLeaseUntil: "9999-01-01T00:00:00.000Z"
      })
      yield* SyncCadence
      yield* hoursPass(3)
      expect(pulls).toEqual([])
      yield* repository.update({ id: row.id, beingId: "ada", label: row.label, status: "disconnected", meta: {} })
      yield* repository.finishSync({
        id: row.id,
        claimer: "by hand",
        status: "done",
        at: new Date(0).toISOString(),
        error: null,
        detail: {}
      })
      yield* hoursPass(3)
      expect(pulls).toEqual([])
    }).pipe(Effect.provide(cadence([diary])))
  })
})
