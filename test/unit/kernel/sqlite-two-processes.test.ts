/**
 * SQLite shared by two processes (two clients on one file, as two node processes on one DATA_DIR): a transaction
 * that read before the other committed cannot write (SQLITE_BUSY_SNAPSHOT, which busy_timeout does not wait out).
 * The node's client runs such a transaction again from the start, so the request it serves does not fail.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"
import { tempDir } from "../../support/temp-dir.ts"

const clientOn = (filename: string) =>
  ManagedRuntime.make(databaseLayer({}, { filename }).pipe(Layer.provide(Settings.layerWith({}))))

describe("SQLite shared by two processes", () => {
  it("runs a transaction again when the other process wrote between its read and its write", async () => {
    const filename = join(tempDir("sqlite-two-"), "node.db")
    const first = clientOn(filename)
    const second = clientOn(filename)
    try {
      await first.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE notes (text TEXT)`))
      let attempts = 0
      await first.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql.withTransaction(
            Effect.gen(function* () {
              attempts += 1
              yield* sql`SELECT count(*) AS n FROM notes`
              // The other process commits after this one's read, on the first attempt only.
              if (attempts === 1)
                yield* Effect.promise(() =>
                  second.runPromise(
                    Effect.flatMap(SqlClient.SqlClient, (other) => other`INSERT INTO notes (text) VALUES ('theirs')`)
                  )
                )
              yield* sql`INSERT INTO notes (text) VALUES ('mine')`
            })
          )
        )
      )
      expect(attempts).toBe(2)
      const rows = await second.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ text: string }>`SELECT text FROM notes ORDER BY rowid`)
      )
      expect(rows.map((row) => row.text)).toEqual(["theirs", "mine"])
    } finally {
      await first.dispose()
      await second.dispose()
    }
  })
})
