/**
 * On PostgreSQL the node's database is not a file it can snapshot: every backups route answers 409 `use_pg_dump`
 * (docs/operations.md "Backups" gives pg_dump's procedure), and nothing is written; so does the register page's restore.
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

  it("refuses the register page's restore with 409 use_pg_dump (the database is no file to put back)", async () => {
    const url = context.node.url
    expect(await fetch(`${url}/api/setup/restore`).then((response) => response.json())).toMatchObject({
      available: false,
      reason: "use_pg_dump"
    })
    const form = new FormData()
    form.append("file", new Blob(["not read"]), "backup.tar.gz.age")
    form.append("passphrase", passphrase)
    const restore = await fetch(`${url}/api/setup/restore`, { method: "POST", body: form, headers: { origin: url } })
    expect([restore.status, ((await restore.json()) as { error: string }).error]).toEqual([409, "use_pg_dump"])
  })
})
