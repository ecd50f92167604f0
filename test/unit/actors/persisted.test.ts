import * as ClusterSchema from "@effect/cluster/ClusterSchema"
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { entityLayer } from "../../../kernel/actors/index.ts"
import { tempDir } from "../../support/temp-dir.ts"
import { actorRuntime } from "./actor-runtime.ts"
import { readDatabase, startJournalNode } from "./journal-process.ts"

const Ledger = Entity.make("Ledger", [
  Rpc.make("Post", {
    payload: { id: Schema.String, amount: Schema.Number },
    success: Schema.Number,
    primaryKey: ({ id }) => id
  }).annotate(ClusterSchema.Persisted, true)
])

const LedgerLive = entityLayer(
  Ledger,
  Effect.sync(() => {
    let balance = 0
    return Ledger.of({ Post: ({ payload }) => Effect.sync(() => (balance += payload.amount)) })
  })
)

describe("a persisted message", () => {
  it.live("is stored in the node's SQLite database, processed, and deduplicated by its primary key", () =>
    Effect.gen(function* () {
      const ledger = (yield* Ledger.client)("l")
      expect(yield* ledger.Post({ id: "p1", amount: 5 })).toBe(5)
      expect(yield* ledger.Post({ id: "p2", amount: 7 })).toBe(12)
      // a retry of p1 (say, after the sender crashed) gets p1's stored reply and changes nothing
      expect(yield* ledger.Post({ id: "p1", amount: 5 })).toBe(5)
      expect(yield* ledger.Post({ id: "p3", amount: 1 })).toBe(13)

      const sql = yield* SqlClient.SqlClient
      const stored = yield* sql<{ entityId: string; processed: number; payload: string }>`
        SELECT entity_id AS "entityId", processed, payload FROM cluster_messages
        WHERE entity_type = 'Ledger' ORDER BY id`
      expect(stored.map((row) => [row.entityId, row.processed, JSON.parse(row.payload)])).toEqual([
        ["l", 1, { id: "p1", amount: 5 }],
        ["l", 1, { id: "p2", amount: 7 }],
        ["l", 1, { id: "p3", amount: 1 }]
      ])
    }).pipe(Effect.provide(LedgerLive.pipe(Layer.provideMerge(actorRuntime()))))
  )

  it("survives SIGKILL mid-processing and is redelivered and processed when the node starts again", async () => {
    const filename = join(tempDir("actors"), "node.db")

    const first = startJournalNode({ DB_FILE: filename, SEND_ON_BOOT: "m1" })
    await first.printed("attempt m1 1")
    first.kill("SIGKILL")
    expect(await first.exited).toEqual({ code: null, signal: "SIGKILL" })
    expect(readDatabase(filename, "SELECT tag, processed FROM cluster_messages WHERE entity_type = 'Journal'")).toEqual(
      [{ tag: "Append", processed: 0 }]
    )
    expect(readDatabase(filename, "SELECT * FROM journal_lines")).toEqual([])

    const second = startJournalNode({ DB_FILE: filename })
    await second.printed("appended m1")
    second.kill("SIGTERM")
    expect(await second.exited).toEqual({ code: 0, signal: null })

    expect(readDatabase(filename, "SELECT id, line FROM journal_lines")).toEqual([{ id: "m1", line: "line m1" }])
    expect(readDatabase(filename, "SELECT count(*) AS attempts FROM journal_attempts")).toEqual([{ attempts: 2 }])
    expect(readDatabase(filename, "SELECT processed FROM cluster_messages WHERE entity_type = 'Journal'")).toEqual([
      { processed: 1 }
    ])
  })
})
