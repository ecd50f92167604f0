/**
 * On PostgreSQL the node's database is not a file it can snapshot: every backups route answers 409 `use_pg_dump`
 * (docs/operations.md "Backups" gives pg_dump's procedure), and nothing is written.
 */
import { describe, expect, it } from "vitest"
import { refused } from "../support/node.ts"
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"

const context = nodeOnPostgresWithOwner()
const id = { id: "backup-20300101T000000Z" }
const passphrase = "correct horse battery staple"

describe("backups on PostgreSQL", () => {
  it("answers 409 use_pg_dump on every route", async () => {
    const api = context.owner.client.api.backups
    for (const call of [
      api.create({ payload: { passphrase } }),
      api.list(),
      api.schedule(),
      api.verify({ path: id, payload: { passphrase } }),
      api.remove({ path: id })
    ]) {
      expect(await refused(call)).toMatchObject({ status: 409, body: { error: "use_pg_dump" } })
    }
    const download = await fetch(`${context.node.url}/api/backups/${id.id}/download`, {
      headers: { cookie: context.owner.client.cookieHeader() }
    })
    expect(download.status).toBe(409)
  })
})
