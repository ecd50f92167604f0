/**
 * A dead runner noticed by its connection, not by its heartbeat's age. Each socket runner holds a PostgreSQL
 * advisory lock of its own address on a connection it keeps for its whole life; PostgreSQL lets go of it the moment
 * that connection closes, which a killed process's does at once. Every runner looks, twice a second, for healthy
 * runners whose lock is gone and marks them unhealthy in the cluster's runner table (the library's own
 * `setRunnerHealth`), so the survivors' next assignment refresh (every second) moves their shards. A runner that is
 * only slow (a stalled event loop, a long transaction) keeps its connection and its lock, so it is not mistaken for a
 * dead one: the heartbeat's 8 s expiry stays as the backstop (docs/decisions.md "Socket runners").
 */
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as RunnerStorage from "@effect/cluster/RunnerStorage"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"

/** The first key of every runner's lock (two-key advisory locks: apart from the migrations' 7310 and the shards'). */
const LIVENESS_LOCK = 7311
/** How often a runner looks for dead ones. */
export const livenessCheckInterval = Duration.millis(500)

const addressText = (address: RunnerAddress.RunnerAddress) => `${address.host}:${address.port}`

/**
 * Takes the runner's lock before it registers (a runner seen without it would be taken for dead), then watches. The
 * runner storage is the runner's own (./actors-layer.ts provides one to both), not a second one.
 */
export const runnerLivenessLayer = (self: RunnerAddress.RunnerAddress) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const storage = yield* RunnerStorage.RunnerStorage
      const own = addressText(self)
      // A runner that cannot hold its lock cannot be told from a dead one: the node stops saying why.
      const connection = yield* Effect.orDie(sql.reserve)
      yield* Effect.orDie(
        connection.executeRaw("SELECT pg_advisory_lock($1, hashtext($2) & 2147483647)", [LIVENESS_LOCK, own])
      )

      const sweep = Effect.gen(function* () {
        // The runners with their locks in one statement: the storage's `getRunners` answers no locks, so the table is
        // named here (`cluster_runners`: the storage's default prefix, which ./actors-layer.ts builds it with).
        const dead = yield* sql<{ readonly address: string }>`
          SELECT r.address FROM cluster_runners r
          WHERE r.healthy AND r.address <> ${own} AND NOT EXISTS (
            SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
              AND l.classid::bigint = ${LIVENESS_LOCK} AND l.objid::bigint = (hashtext(r.address) & 2147483647)
          )`
        for (const { address } of dead) {
          const at = address.lastIndexOf(":")
          yield* Effect.logWarning("A runner's connection is gone: marking it unhealthy so its shards move", {
            address
          })
          yield* storage.setRunnerHealth(RunnerAddress.make(address.slice(0, at), Number(address.slice(at + 1))), false)
        }
      })
      yield* Effect.forkScoped(
        Effect.repeat(
          Effect.catchAllCause(sweep, (cause) => Effect.logDebug("Looking for dead runners failed", cause)),
          Schedule.spaced(livenessCheckInterval)
        )
      )
    })
  )
