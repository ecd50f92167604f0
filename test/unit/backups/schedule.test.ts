/**
 * Scheduled backups on the TestClock (issue 29): every BACKUP_EVERY_HOURS a backup, the oldest scheduled ones past
 * BACKUP_KEEP removed (one made by hand is kept); a run that fails raises an alert to the owner saying why.
 */
import { describe, expect, it } from "@effect/vitest"
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Backups } from "../../../extensions/backups/backups.ts"
import { backupSchedule, ScheduledOutcomes } from "../../../extensions/backups/schedule.ts"
import { BackupsSettings } from "../../../extensions/backups/settings.ts"
import type { SignalInput } from "../../../actors/being/contract/signal.ts"
import { Signals, type SignalsShape } from "../../../extensions/desktop/contract/signals.ts"
import { Settings } from "../../../kernel/settings.ts"

const PASSPHRASE = "a scheduled passphrase"

/** A data folder with a small node database, removed when the test's scope closes. */
const dataFolder = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = mkdtempSync(join(tmpdir(), "backup-schedule-"))
    const db = new Database(join(dir, "node.db"))
    db.exec("CREATE TABLE beings (id TEXT PRIMARY KEY); INSERT INTO beings VALUES ('ada')")
    db.close()
    return dir
  }),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

const scheduled = (dataDir: string, alerts: Array<SignalInput>, backupDir?: string) => {
  const signals = Layer.succeed(Signals, {
    raiseForOwner: (input: SignalInput) => Effect.sync(() => alerts.push(input))
  } as unknown as SignalsShape)
  return backupSchedule.pipe(
    Layer.provideMerge(Layer.merge(Backups.Default, ScheduledOutcomes.Default)),
    Layer.provide(signals),
    Layer.provide(
      BackupsSettings.layer({
        backupEveryHours: Option.some(6),
        backupPassphrase: Option.some(Redacted.make(PASSPHRASE)),
        backupKeep: 2,
        backupDir: Option.fromNullable(backupDir),
        encryptionKey: Option.none()
      })
    ),
    Layer.provide(Settings.layerWith({ dataDir, filesDir: Option.some(dataDir), pluginDir: join(dataDir, "plugins") }))
  )
}

describe("scheduled backups", () => {
  it.scoped(
    "make one every BACKUP_EVERY_HOURS and keep the newest BACKUP_KEEP scheduled ones",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* dataFolder
        const alerts: Array<SignalInput> = []
        const context = yield* Layer.build(scheduled(dataDir, alerts))
        const service = yield* Effect.provide(Backups, context)
        const outcomes = yield* PubSub.subscribe(yield* Effect.provide(ScheduledOutcomes, context))
        const byHand = yield* service.create(PASSPHRASE)

        const made: Array<string> = []
        for (let run = 1; run <= 3; run += 1) {
          yield* TestClock.adjust("6 hours")
          const outcome = yield* Queue.take(outcomes)
          expect(outcome.error).toBeNull()
          made.push(outcome.backupId!)
        }
        expect(made).toEqual(["backup-19700101T060000Z", "backup-19700101T120000Z", "backup-19700101T180000Z"])
        const kept = (yield* service.list()).map((backup) => backup.id)
        expect(kept).toEqual([made[2], made[1], byHand.id])
        expect(yield* service.schedule()).toEqual({
          everyHours: 6,
          keep: 2,
          lastRunAt: "1970-01-01T18:00:00.000Z",
          lastError: null
        })
        expect(alerts).toEqual([])
      }),
    60_000
  )

  it.scoped(
    "raise an alert to the owner saying why when a run fails",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* dataFolder
        // BACKUP_DIR names a file: no backup can be written there.
        const notAFolder = join(dataDir, "not-a-folder")
        writeFileSync(notAFolder, "")
        const alerts: Array<SignalInput> = []
        const context = yield* Layer.build(scheduled(dataDir, alerts, notAFolder))
        const outcomes = yield* PubSub.subscribe(yield* Effect.provide(ScheduledOutcomes, context))
        yield* TestClock.adjust("6 hours")
        const outcome = yield* Queue.take(outcomes)
        expect(outcome.error).toContain("not-a-folder")
        expect(alerts).toEqual([
          expect.objectContaining({
            kind: "alert",
            title: "A scheduled backup failed",
            body: expect.stringContaining("not-a-folder")
          })
        ])
        const service = yield* Effect.provide(Backups, context)
        expect((yield* service.schedule()).lastError).toContain("not-a-folder")
      }),
    60_000
  )
})
