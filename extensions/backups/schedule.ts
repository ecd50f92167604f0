/**
 * Scheduled backups: with BACKUP_EVERY_HOURS set, every so many hours on the node's Clock a backup encrypted to
 * BACKUP_PASSPHRASE, then the oldest scheduled ones past BACKUP_KEEP removed. A run that fails raises an alert signal
 * on the owner's desktop (system trigger) saying why, and the schedule goes on. Each outcome is also published, for the
 * web app's schedule state and for tests that wait on it. Off on PostgreSQL (the routes say use pg_dump).
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import { Signals } from "../desktop/contract/signals.ts"
import { Backups } from "./backups.ts"
import { BackupsSettings } from "./settings.ts"

export interface ScheduledOutcome {
  readonly at: string
  readonly backupId: string | null
  readonly error: string | null
}

/** Every scheduled run's outcome, as it ends. */
export class ScheduledOutcomes extends Effect.Service<ScheduledOutcomes>()("backups/ScheduledOutcomes", {
  effect: PubSub.unbounded<ScheduledOutcome>()
}) {}

const reasonOf = (cause: Cause.Cause<unknown>) => {
  const error = Cause.squash(cause)
  const message = error instanceof Error ? error.message : String((error as { message?: unknown })?.message ?? error)
  return message.slice(0, 300)
}

export const backupSchedule = Layer.scopedDiscard(
  Effect.gen(function* () {
    const backups = yield* Backups
    const settings = yield* BackupsSettings
    const signals = yield* Signals
    const outcomes = yield* ScheduledOutcomes
    if (Option.isNone(settings.backupEveryHours) || Option.isNone(settings.backupPassphrase) || backups.onPostgres)
      return
    const passphrase = Redacted.value(settings.backupPassphrase.value)
    const every = Duration.millis(Math.round(settings.backupEveryHours.value * 3_600_000))

    const alert = (reason: string) =>
      signals
        .raiseForOwner(
          {
            kind: "alert",
            title: "A scheduled backup failed",
            body: `The backup due now was not made: ${reason}. The next one is tried in ${Duration.format(every)}.`,
            priority: "high",
            options: [],
            dueAt: null,
            action: null
          },
          "backups",
          "system"
        )
        .pipe(
          Effect.asVoid,
          Effect.catchAll((error) => Effect.logWarning(`A backup alert did not reach the desktop (${error.message})`))
        )

    const runOnce = Effect.gen(function* () {
      const at = new Date(yield* Clock.currentTimeMillis).toISOString()
      const made = yield* backups.create(passphrase, true).pipe(
        Effect.tap(() => backups.prune(settings.backupKeep)),
        Effect.map((backup) => ({ at, backupId: backup.id, error: null })),
        Effect.catchAllCause((cause) => {
          const reason = reasonOf(cause)
          return Effect.as(Effect.zipRight(Effect.logError(`A scheduled backup failed: ${reason}`), alert(reason)), {
            at,
            backupId: null,
            error: reason
          })
        })
      )
      yield* Ref.set(backups.lastRun, { at: made.at, error: made.error })
      yield* PubSub.publish(outcomes, made)
    })

    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(every), runOnce)))
  })
)
