/**
 * The `rate_windows` table: hits per (class, address) in fixed one-minute windows, shared by every
 * process over the database. Counting is one upsert that adds a process's hits (one, or those it
 * kept since its last write) and answers the new count, so two processes counting the same window
 * at once never lose a hit.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"

const Window = Schema.Struct({ rateClass: Schema.String, address: Schema.String, windowStart: Schema.String })
const Hits = Schema.Struct({ ...Window.fields, hits: Schema.Int })

export class RateWindowsRepository extends Effect.Service<RateWindowsRepository>()("http/RateWindowsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const upsert = SqlSchema.single({
      Request: Hits,
      Result: Schema.Struct({ count: Schema.Number }),
      execute: ({
        rateClass,
        address,
        windowStart,
        hits
      }) => sql`INSERT INTO rate_windows (rate_class, address, window_start, count)
        VALUES (${rateClass}, ${address}, ${windowStart}, ${hits})
        ON CONFLICT (rate_class, address, window_start) DO UPDATE SET count = rate_windows.count + excluded.count
        RETURNING count`
    })

    /** Adds `hits` to the window; answers the window's count with them (the upsert always answers a row). */
    const add = operation("http.addRateHits", (window: typeof Hits.Type) => Effect.orDie(upsert(window)))

    /** Drops the windows that started before `before`: they count nothing any more. */
    const sweep = operation(
      "http.sweepRateWindows",
      SqlSchema.void({
        Request: Schema.Struct({ before: Schema.String }),
        execute: ({ before }) => sql`DELETE FROM rate_windows WHERE window_start < ${before}`
      })
    )

    return { add, sweep } as const
  })
}) {}
