/**
 * Backups over a real node (issue 29): every refusal; a backup made while another client keeps writing holds every
 * write acknowledged before it began, a database that passes integrity_check, and the reference `age` command
 * decrypts it; verify with the right and a wrong passphrase; download and delete. Restore: backups-restore.test.ts.
 */
import Database from "better-sqlite3"
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { tempDir } from "../support/temp-dir.ts"
import { Client, refused, run } from "../support/node.ts"
import { ageDecrypt, backupsNode, PASSPHRASE } from "./backups-support.ts"

const context = backupsNode()

const download = (client: Client, id: string) =>
  fetch(`${client.base}/api/backups/${id}/download`, { headers: { cookie: client.cookieHeader() } })

describe("backup refusals", () => {
  it("answers 401 without a session, 403 to a member, 400 for a weak passphrase or a bad body, 415, 404", async () => {
    const stranger = new Client(context.node.url)
    expect((await stranger.raw("GET", "/api/backups")).status).toBe(401)
    expect((await stranger.raw("POST", "/api/backups", { passphrase: PASSPHRASE })).status).toBe(401)
    expect((await download(stranger, "backup-20300101T000000Z")).status).toBe(401)

    const member = context.member.client
    for (const call of [
      member.api.backups.list(),
      member.api.backups.schedule(),
      member.api.backups.create({ payload: { passphrase: PASSPHRASE } }),
      member.api.backups.verify({ path: { id: "backup-20300101T000000Z" }, payload: { passphrase: PASSPHRASE } }),
      member.api.backups.remove({ path: { id: "backup-20300101T000000Z" } })
    ]) {
      expect(await refused(call)).toMatchObject({ status: 403, body: { error: "forbidden" } })
    }
    expect((await download(member, "backup-20300101T000000Z")).status).toBe(403)

    const owner = context.owner.client
    expect(await refused(owner.api.backups.create({ payload: { passphrase: "short" } }))).toMatchObject({
      status: 400,
      body: { error: "weak_passphrase", details: { minLength: 12 } }
    })
    expect((await owner.raw("POST", "/api/backups", {})).status).toBe(400)
    expect(
      (await owner.raw("POST", "/api/backups", `passphrase=${PASSPHRASE}`, { "content-type": "text/plain" })).status
    ).toBe(415)
    expect(
      (await owner.raw("POST", "/api/backups", { passphrase: PASSPHRASE }, { origin: "https://elsewhere.example" }))
        .status
    ).toBe(403)
    const missing = { id: "backup-20300101T000000Z" }
    expect(await refused(owner.api.backups.remove({ path: missing }))).toMatchObject({ status: 404 })
    expect(
      await refused(owner.api.backups.verify({ path: missing, payload: { passphrase: PASSPHRASE } }))
    ).toMatchObject({ status: 404, body: { error: "not_found" } })
    expect((await download(owner, missing.id)).status).toBe(404)
    expect((await download(owner, "..%2Fnode.db")).status).toBe(400)
    expect((await owner.raw("DELETE", "/api/backups/not-a-backup")).status).toBe(400)
    // Nothing was written by any of them.
    expect(await run(owner.api.backups.list())).toEqual([])
  })
})

describe("a backup", { timeout: 60_000 }, () => {
  it("made while another client keeps writing holds every acknowledged write; age decrypts it", async () => {
    const owner = context.owner.client
    const writer = new Client(context.node.url)
    writer.copyCookiesFrom(owner)
    const acknowledged: Array<string> = []
    let writing = true
    const writes = (async () => {
      for (let n = 0; writing; n += 1) {
        const content = `A note written while backing up, number ${n}`
        await run(writer.api.twin.createMemory({ payload: { content } }))
        acknowledged.push(content)
      }
    })()
    while (acknowledged.length < 5) await new Promise((resolve) => setImmediate(resolve))
    const before = [...acknowledged]
    const backup = await run(owner.api.backups.create({ payload: { passphrase: PASSPHRASE } }))
    writing = false
    await writes

    expect(backup).toMatchObject({
      id: expect.stringMatching(/^backup-\d{8}T\d{6}Z(-\d+)?$/),
      bytes: expect.any(Number),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      counts: { beings: expect.any(Number), memories: expect.any(Number), files: 0, listings: 0 }
    })
    expect(backup.counts.memories).toBeGreaterThanOrEqual(before.length)
    expect(await run(owner.api.backups.list())).toEqual([backup])

    const answer = await download(owner, backup.id)
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-disposition")).toContain(`${backup.id}.tar.gz.age`)
    const bytes = Buffer.from(await answer.arrayBuffer())
    expect(bytes.length).toBe(backup.bytes)
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(backup.sha256)
    expect(bytes.subarray(0, 21).toString()).toBe("age-encryption.org/v1")

    const dir = tempDir("backup-read")
    writeFileSync(join(dir, "backup.age"), bytes)
    const decrypted = await ageDecrypt(join(dir, "backup.age"), join(dir, "backup.tar.gz"), PASSPHRASE)
    expect(decrypted.code).toBe(0)
    execFileSync("tar", ["-xzf", join(dir, "backup.tar.gz"), "-C", dir])
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"))
    expect(manifest).toMatchObject({ format: 1, nodeVersion: expect.any(String), counts: backup.counts })
    for (const [path, sha] of Object.entries(manifest.sha256 as Record<string, string>)) {
      expect(
        createHash("sha256")
          .update(readFileSync(join(dir, path)))
          .digest("hex"),
        path
      ).toBe(sha)
    }
    expect(Object.keys(manifest.sha256)).toEqual(
      expect.arrayContaining(["node.db", "keys/ENCRYPTION_KEY", "plugins/hello-plugin/note.txt"])
    )
    const db = new Database(join(dir, "node.db"), { readonly: true })
    try {
      expect(db.pragma("integrity_check")).toEqual([{ integrity_check: "ok" }])
      const held = new Set(
        (db.prepare("SELECT content FROM twin_memories").all() as Array<{ content: string }>).map((row) => row.content)
      )
      expect(before.filter((content) => !held.has(content))).toEqual([])
    } finally {
      db.close()
    }
  })

  it("verifies with its passphrase, names the problem with a wrong one, and deletes", async () => {
    const owner = context.owner.client
    const backup = await run(owner.api.backups.create({ payload: { passphrase: PASSPHRASE } }))
    expect((await run(owner.api.backups.list()))[0]).toEqual(backup)
    expect(
      await run(owner.api.backups.verify({ path: { id: backup.id }, payload: { passphrase: PASSPHRASE } }))
    ).toEqual({ ok: true, counts: backup.counts, problems: [] })
    expect(
      await run(owner.api.backups.verify({ path: { id: backup.id }, payload: { passphrase: "not the passphrase" } }))
    ).toEqual({ ok: false, counts: null, problems: ["The passphrase does not open this backup."] })

    await run(owner.api.backups.remove({ path: { id: backup.id } }))
    expect((await run(owner.api.backups.list())).map((entry) => entry.id)).not.toContain(backup.id)
    expect((await download(owner, backup.id)).status).toBe(404)
  })
})
