/**
 * Provider cadence (ProviderDescriptor `cadenceMs`): the node syncs each connected being's
 * connection to a provider with a cadence by itself, on the Effect Clock. A connection never
 * synced is synced at once; after a pass that finished, the next comes `cadenceMs` later; after
 * failed passes the wait doubles with each failure in a row (a service that is down is not asked
 * every time), up to `maxBackoffMs` or the cadence when that is longer. A pass goes through
 * TwinSync like a being's own, so one runs at a time per connection: a connection whose sync is
 * running (by hand, say) waits for the next round. Cadence 0 or none: manual only. Only the
 * remote providers (plugins', mail_a) have one; the owner's folder is synced by hand.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { PluginSyncs } from "./plugin-syncs.ts"
import { RemoteSyncs } from "./ports.ts"
import { ConnectionsRepository, type TwinConnection } from "./repositories/connections-repository.ts"
import { TwinSync } from "./sync.ts"
import { runSingleton } from "../../kernel/actors/singletons.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** How long the round sleeps at most: a connection made or a plugin installed meanwhile is seen by then. */
export const cadenceRoundMs = 60_000
/** The longest a failing connection's next try is put off, unless its cadence is longer still. */
export const maxBackoffMs = 86_400_000

interface Seen {
  /** The last finish the round saw (the row's syncFinishedAt). */
  readonly finishedAt: string | null
  readonly failures: number
}

const millis = (iso: string | null) => (iso === null ? null : Date.parse(iso))

/** When the connection's next pass is due, in ms since the epoch. */
export const dueAt = (row: TwinConnection, cadenceMs: number, failures: number) => {
  const finished = millis(row.syncFinishedAt)
  if (finished === null) return 0
  const wait = failures === 0 ? cadenceMs : Math.min(cadenceMs * 2 ** failures, Math.max(maxBackoffMs, cadenceMs))
  return finished + wait
}

export class SyncCadence extends Effect.Service<SyncCadence>()("twin/SyncCadence", {
  dependencies: [TwinSync.Default, ConnectionsRepository.Default],
  scoped: Effect.gen(function* () {
    const sync = yield* TwinSync
    const connections = yield* ConnectionsRepository
    const plugins = yield* PluginSyncs
    const builtins = yield* RemoteSyncs
    const seen = new Map<string, Seen>()

    /** Failures in a row, counted from what each finished pass left on its row. */
    const failuresOf = (row: TwinConnection) => {
      const before = seen.get(row.id) ?? { finishedAt: null, failures: 0 }
      const now =
        row.syncFinishedAt === before.finishedAt
          ? before
          : { finishedAt: row.syncFinishedAt, failures: row.syncStatus === "error" ? before.failures + 1 : 0 }
      seen.set(row.id, now)
      return now.failures
    }

    /** One round: every due connection started; answers how long until the next is due (at most a round). */
    const round = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const remotes = [...builtins, ...(yield* plugins.list)].filter(
        (remote) => remote.configured && (remote.cadenceMs ?? 0) > 0
      )
      let next = now + cadenceRoundMs
      for (const remote of remotes) {
        for (const row of yield* connections.connectedTo(remote.provider)) {
          if (row.syncStatus === "running") continue
          const due = dueAt(row, remote.cadenceMs!, failuresOf(row))
          if (due > now) {
            next = Math.min(next, due)
            continue
          }
          // A refusal (a sync already running) waits for the next round; the pass's own failure is on its row.
          yield* sync
            .start({ beingId: row.beingId, isOwner: false }, remote.provider, {})
            .pipe(
              Effect.catchAll((error) =>
                Effect.logDebug(`The ${remote.provider} cadence skipped a connection: ${error.message}`)
              )
            )
        }
      }
      return Math.max(0, next - now)
    }).pipe(spanNamed("twin.syncCadence"))

    yield* runSingleton(
      "twin.syncCadence",
      Effect.forever(
        Effect.flatMap(
          Effect.catchAllCause(round, (cause) =>
            Effect.as(Effect.logError("A provider cadence round failed", cause), cadenceRoundMs)
          ),
          (waitMs) => Effect.sleep(Duration.millis(Math.max(waitMs, 1000)))
        )
      )
    )
    return {} as const
  })
}) {}
