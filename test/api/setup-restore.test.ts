/**
 * Restore from the register page (issue 29): a node with no owner, run as its own process, takes a backup made by
 * another node with its passphrase, answers 202 and comes back on the same port serving the restored data, with no
 * one at a terminal. Every refusal changes nothing: no file, not multipart, too large, a wrong passphrase, another
 * site's page, and any restore once the node has an owner. A backup that cannot be placed once the node stopped
 * leaves the old folders where they were, and a restored node that does not start is taken back.
 */
import { streamBody } from "../support/raw-http.ts"
import { at } from "../support/json.ts"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildNode, startChildNode } from "../support/child-node.ts"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { tempDir } from "../support/temp-dir.ts"
import Database from "better-sqlite3"
import { writeBackup } from "../../extensions/backups/archive-write.ts"
import { placeStagedBackup, stageBackup } from "../../extensions/backups/restore.ts"
import { PASSPHRASE } from "./backups-support.ts"

const MEMORY = "The spare key is under the blue pot"
const FILE_TEXT = "the lease, page one"

const context = {} as { source: TestNode; owner: Registered; backup: string; bytes: number }

beforeAll(async () => {
  context.source = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  context.owner = await registerOwner(context.source)
  const owner = context.owner.client
  await run(owner.api.twin.createMemory({ payload: { content: MEMORY } }))
  const form = new FormData()
  form.append("file", new Blob([FILE_TEXT]), "lease.txt")
  const uploaded = await fetch(`${owner.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { cookie: owner.cookieHeader() }
  })
  expect(uploaded.status).toBe(200)
  const backup = await run(owner.api.backups.create({ payload: { passphrase: PASSPHRASE } }))
  context.backup = join(context.source.dataDir, "backups", `${backup.id}.tar.gz.age`)
  context.bytes = backup.bytes
})
afterAll(() => context.source.close())

/** The backup (or any bytes) with a passphrase, as the register page sends them. */
const restoreForm = (
  passphrase: string | null,
  file: Uint8Array<ArrayBuffer> | null = new Uint8Array(readFileSync(context.backup))
) => {
  const form = new FormData()
  if (file !== null) form.append("file", new Blob([file]), "backup.tar.gz.age")
  if (passphrase !== null) form.append("passphrase", passphrase)
  return form
}

const postRestore = (node: ChildNode, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(`${node.url}/api/setup/restore`, { method: "POST", body, headers: { origin: node.url, ...headers } })

const refusal = async (response: Response) => [response.status, ((await response.json()) as { error: string }).error]

/** What the data folder and its parent hold: a refusal must leave both as they were. */
const folders = (node: ChildNode) => ({
  data: readdirSync(node.dataDir).sort(),
  beside: readdirSync(join(node.dataDir, "..")).sort()
})

/** Polls the node's health until a node started after `before` answers (the relaunched one). */
const relaunched = async (node: ChildNode, before: string) => {
  for (;;) {
    const health = await fetch(`${node.url}/api/health`)
      .then((response) => (response.ok ? (response.json() as Promise<{ startedAt: string }>) : null))
      .catch(() => null)
    if (health !== null && health.startedAt !== before) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe("restore from the register page", () => {
  it("refuses what it cannot take, changing nothing; restores a backup and comes back serving it", async () => {
    const dataDir = join(tempDir("setup-restore"), "data")
    const node = await startChildNode({
      dataDir,
      env: {
        MAX_RESTORE_BYTES: String(context.bytes + 1024),
        PLUGIN_DIR: join(dataDir, "plugins"),
        // A key of the environment's own, not the backup's: the log says to unset it.
        ENCRYPTION_KEY: "a key this node was given, not the backup's"
      }
    })
    try {
      const availability = await fetch(`${node.url}/api/setup/restore`).then((response) => response.json())
      expect(availability).toEqual({ available: true, reason: null, maxBytes: context.bytes + 1024 })
      const before = folders(node)

      expect(await refusal(await postRestore(node, restoreForm(PASSPHRASE, null)))).toEqual([400, "no_file"])
      expect(await refusal(await postRestore(node, restoreForm(null)))).toEqual([400, "invalid_request"])
      const json = await postRestore(node, JSON.stringify({ passphrase: PASSPHRASE }), {
        "content-type": "application/json"
      })
      expect(await refusal(json)).toEqual([415, "unsupported_media_type"])
      const crossSite = await postRestore(node, restoreForm(PASSPHRASE), { origin: "https://evil.example" })
      expect(await refusal(crossSite)).toEqual([403, "forbidden_origin"])
      const wrong = await postRestore(node, restoreForm("not the passphrase at all"))
      expect(await refusal(wrong)).toEqual([400, "wrong_passphrase"])
      const damagedBytes = new Uint8Array(readFileSync(context.backup))
      damagedBytes[Math.floor(damagedBytes.length / 2)]! ^= 0xff
      expect((await refusal(await postRestore(node, restoreForm(PASSPHRASE, damagedBytes))))[0]).toBe(400)
      // Past MAX_RESTORE_BYTES, declared up front and streamed without a length. Over a bare socket that stops
      // writing once the answer comes: a client still writing when the server refuses and closes meets EPIPE instead.
      const boundary = "restore-boundary"
      const head = `POST /api/setup/restore HTTP/1.1\r\nOrigin: ${node.url}\r\nContent-Type: multipart/form-data; boundary=${boundary}`
      const declared = await streamBody(node.url, head, context.bytes + 256 * 1024, {
        contentLength: context.bytes + 256 * 1024
      })
      expect([declared.answer?.status, at(declared.answer?.body, "error")]).toEqual([413, "payload_too_large"])
      const chunked = await streamBody(node.url, head, context.bytes + 1024 ** 2, {
        prefix: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="passphrase"\r\n\r\n${PASSPHRASE}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.tar.gz.age"\r\n` +
            "Content-Type: application/octet-stream\r\n\r\n"
        )
      })
      // Refused at the limit; a client still writing may see the connection reset before it reads the 413.
      if (chunked.answer !== null)
        expect([chunked.answer.status, at(chunked.answer.body, "error")]).toEqual([413, "payload_too_large"])
      expect(folders(node)).toEqual(before)

      const startedAt = (
        (await fetch(`${node.url}/api/health`).then((response) => response.json())) as {
          startedAt: string
        }
      ).startedAt
      // Two at once: one is taken, the other refused while it runs.
      const [first, second] = await Promise.all([
        postRestore(node, restoreForm(PASSPHRASE)),
        postRestore(node, restoreForm(PASSPHRASE))
      ])
      const [taken, refusedMeanwhile] = first!.status === 202 ? [first!, second!] : [second!, first!]
      expect(await refusal(refusedMeanwhile)).toEqual([409, "restore_running"])
      expect(taken.status).toBe(202)
      expect(await taken.json()).toMatchObject({
        restarting: true,
        ownerHandle: context.owner.registration.handle,
        counts: { memories: 1, files: 1 }
      })
      await relaunched(node, startedAt)

      // The same address serves the restored node: its owner signs in and finds their memory and file.
      const again = new Client(node.url)
      const { email, password } = context.owner.registration
      await run(again.api.authPublic.login({ payload: { email, password } }))
      const memories = await run(again.api.twin.searchMemories({ urlParams: { offset: 0 } }))
      expect(memories.map((memory) => memory.content)).toContain(MEMORY)
      const files = await run(again.api.files.list({ urlParams: { scope: "upload" } }))
      expect(JSON.stringify(files)).toContain("lease.txt")
      // The fresh node's folder was moved aside, not deleted.
      const aside = readdirSync(join(dataDir, "..")).filter((name) => name.startsWith("data.before-restore-"))
      expect(aside).toHaveLength(1)
      expect(existsSync(join(dataDir, "..", aside[0]!, "node.db"))).toBe(true)
      expect(node.output()).toContain("Restored the backup of")
      expect(node.output()).toContain("ENCRYPTION_KEY in the environment is not the one the backup carried")

      // Now that the node has an owner, a restore is refused and changes nothing.
      expect(await fetch(`${node.url}/api/setup/restore`).then((response) => response.json())).toMatchObject({
        available: false,
        reason: "owner_exists"
      })
      const afterOwner = folders(node)
      expect(await refusal(await postRestore(node, restoreForm(PASSPHRASE)))).toEqual([409, "owner_exists"])
      expect(folders(node)).toEqual(afterOwner)
    } finally {
      await node.close()
    }
  }, 120_000)

  it("puts the old folders back when placing the backup fails after the node stopped", async () => {
    const root = tempDir("place-fails")
    const dataDir = join(root, "data")
    mkdirSync(dataDir)
    writeFileSync(join(dataDir, "keep-me.txt"), "mine")
    // FILES_DIR is a regular file: the backup's files cannot be placed there, after the data folder was moved aside.
    const filesDir = join(root, "not-a-folder")
    writeFileSync(filesDir, "")
    const targets = { dataDir, filesDir, pluginDir: join(dataDir, "plugins") }
    const staged = await stageBackup(context.backup, PASSPHRASE, targets, new Date())
    await expect(placeStagedBackup(staged, targets)).rejects.toThrow()
    expect(readdirSync(dataDir)).toEqual(["keep-me.txt"])
    expect(readdirSync(root).sort()).toEqual(["data", "not-a-folder"])
  })

  it("takes the restore back when the restored node does not start, and serves the data it had", async () => {
    // A backup whose database a node cannot migrate: a `beings` table of another shape, and no migrations recorded.
    const root = tempDir("unstartable")
    const database = join(root, "made.db")
    const made = new Database(database)
    made.exec("CREATE TABLE beings (x TEXT)")
    made.close()
    mkdirSync(join(root, "empty"))
    const sources = { databaseFile: database, filesDir: join(root, "empty"), pluginDir: join(root, "empty") }
    const backup = await writeBackup(
      { ...sources, encryptionKey: null, nodeVersion: "0.0.0" },
      join(root, "backups"),
      PASSPHRASE,
      new Date()
    )
    const file = new Uint8Array(readFileSync(join(root, "backups", `${backup.id}.tar.gz.age`)))
    const dataDir = join(root, "data")
    const node = await startChildNode({ dataDir, env: { PLUGIN_DIR: join(dataDir, "plugins") } })
    try {
      const startedAt = (
        (await fetch(`${node.url}/api/health`).then((response) => response.json())) as {
          startedAt: string
        }
      ).startedAt
      const before = readdirSync(dataDir)
        .filter((name) => !name.startsWith("node.db-"))
        .sort()
      expect((await postRestore(node, restoreForm(PASSPHRASE, file))).status).toBe(202)
      while (!node.output().includes("the restore was taken back"))
        await new Promise((resolve) => setTimeout(resolve, 100))
      await relaunched(node, startedAt)
      expect(node.output()).toContain("The node did not start after the relaunch")
      // The node is back on its own folder, still without an owner, and offers the restore again.
      expect(await fetch(`${node.url}/api/setup/restore`).then((response) => response.json())).toMatchObject({
        available: true
      })
      expect(
        readdirSync(dataDir)
          .filter((name) => !name.startsWith("node.db-"))
          .sort()
      ).toEqual(before)
      expect(readdirSync(root).filter((name) => name.startsWith("data.failed-restore-"))).toHaveLength(1)
    } finally {
      await node.close()
    }
  }, 120_000)

  it("is unavailable on a node that cannot relaunch itself (one built in a test's process)", async () => {
    const node = await startNode()
    try {
      const client = new Client(node.url)
      expect(await run(client.api.setupRestore.availability())).toMatchObject({
        available: false,
        reason: "relaunch_unavailable"
      })
    } finally {
      await node.close()
    }
  })
})
