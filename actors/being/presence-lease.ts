/**
 * Presence across processes. Each socket's row names the process holding it (its
 * `ProcessIdentity`, carried in `SocketOpened`, since the being entity writing the row may run on
 * another runner), and that process renews a lease in the database every few seconds. Every
 * process, at its start and at each renewal, sweeps the rows of processes whose lease lapsed (a
 * process killed, or the one before a restart) and announces the beings left with no socket as
 * offline, as a socket's close does. A process starting never touches a live process's rows.
 * Alone on the database (SQLite, one process) every earlier process is gone: their rows go at once.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Schedule from "effect/Schedule"
import { EventBus } from "../../kernel/events.ts"
import { ProcessIdentity } from "../../kernel/process-identity.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { BeingSocketsRepository } from "./being-sockets-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** How often a process renews its lease and sweeps lapsed ones. */
export const LEASE_RENEW_MS = 3_000
/** How long a lease holds unrenewed: a few missed renewals (a busy event loop) do not drop a live process's sockets. */
export const LEASE_MS = 15_000

export class PresenceLease extends Effect.Service<PresenceLease>()("being/PresenceLease", {
  scoped: Effect.gen(function* () {
    const processId = (yield* ProcessIdentity).id
    const presence = yield* BeingSocketsRepository
    const bus = yield* EventBus
    const sql = yield* SqlClient.SqlClient
    const alone = sql.onDialectOrElse({ sqlite: () => true, orElse: () => false })

    const lapses = yield* PubSub.unbounded<void>()
    const renew = Effect.gen(function* () {
      const held = yield* presence.renewLease(processId, yield* isoIn(LEASE_MS), yield* nowIso)
      if (!held) yield* PubSub.publish(lapses, undefined)
    })
    const sweep = Effect.gen(function* () {
      const offline = yield* presence.sweep(yield* nowIso)
      for (const beingId of offline)
        yield* bus.publish({ kind: "all" }, { type: "presence.update", beingId, status: "offline" })
    })
    const round = Effect.zipRight(renew, sweep).pipe(spanNamed("presence.leaseRound"))

    yield* presence.renewLease(processId, yield* isoIn(LEASE_MS), yield* nowIso)
    if (alone) yield* presence.endOtherLeases(processId)
    yield* sweep
    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.catchAllCause(round, (cause) => Effect.logWarning("presence: the lease round failed", cause)),
        Schedule.spaced(LEASE_RENEW_MS)
      )
    )
    // Stopping in order: the lease goes, so other processes sweep this one's rows at once. A
    // database already closed (a storage fault is a defect) leaves the lease to lapse instead.
    yield* Effect.addFinalizer(() => Effect.catchAllCause(presence.endLease(processId), () => Effect.void))
    /**
     * Tells when this process's lease had lapsed (a stalled event loop, the database away) and was
     * taken again: its sockets' rows may have been swept while they were open, so they are counted again.
     */
    const lapsed = PubSub.subscribe(lapses)
    return { processId, lapsed } as const
  }),
  dependencies: [ProcessIdentity.Default, BeingSocketsRepository.Default]
}) {}
