/**
 * The LISTEN connection of broadcast.ts, our own rather than @effect/sql-pg's `listen`: the
 * library keeps one listen connection per process and swallows its errors, so a connection that
 * drops (a restarted or failed-over server, a terminated backend) leaves the process deaf for
 * good. Here a dropped connection ends the stream with a failure; broadcast.ts listens again
 * with backoff, and tells its subscribers it was deaf for a while (docs/decisions.md,
 * "Events across processes").
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { PgClientConfig } from "@effect/sql-pg/PgClient"
import pg from "pg"

export class ListenLost extends Data.TaggedError("ListenLost")<{ readonly cause: unknown }> {}

/** How a listen connection's server is named in `pg_stat_activity`: the tests find it by its query. */
export const LISTEN_APPLICATION_NAME = "node-broadcast"

/**
 * The payloads notified on `channel`, from one fresh connection to `url`. `onListening` runs
 * once LISTEN is in place. The stream fails when the connection fails or ends; it never ends.
 */
export const listenOnce = (config: PgClientConfig, channel: string, onListening: Effect.Effect<void>) =>
  Stream.asyncScoped<string, ListenLost>((emit) =>
    Effect.gen(function* () {
      const client = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const client = new pg.Client({
              connectionString: config.url === undefined ? undefined : Redacted.value(config.url),
              host: config.host,
              port: config.port,
              database: config.database,
              user: config.username,
              password: config.password === undefined ? undefined : Redacted.value(config.password),
              ssl: config.ssl,
              application_name: LISTEN_APPLICATION_NAME
            })
            // Before connecting: an error event with no listener would throw out of the process.
            client.on("error", (cause) => void emit.fail(new ListenLost({ cause })))
            client.on("end", () => void emit.fail(new ListenLost({ cause: "the listen connection ended" })))
            await client.connect()
            return client
          },
          catch: (cause) => new ListenLost({ cause })
        }),
        (client) => Effect.promise(() => client.end().catch(() => undefined)).pipe(Effect.timeoutOption(1000))
      )
      client.on("notification", (message) => {
        if (message.channel === channel && message.payload) void emit.single(message.payload)
      })
      yield* Effect.tryPromise({
        try: () => client.query(`LISTEN ${pg.escapeIdentifier(channel)}`),
        catch: (cause) => new ListenLost({ cause })
      })
      yield* onListening
    })
  )
