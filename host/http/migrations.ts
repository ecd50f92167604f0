/** The rate limiter's table, used when its counts must hold across the processes of a cluster. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { Migrations } from "../../kernel/database.ts"

export const httpMigrations: Migrations = {
  "0090_rate_windows": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // One fixed one-minute window per (class, address): `global` or a rate class, the client's
    // address, the window's start as ISO text. Rows of past windows are swept.
    yield* sql`CREATE TABLE rate_windows (
      rate_class TEXT NOT NULL,
      address TEXT NOT NULL,
      window_start TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (rate_class, address, window_start)
    )`
    yield* sql`CREATE INDEX rate_windows_start ON rate_windows (window_start)`
  })
}
