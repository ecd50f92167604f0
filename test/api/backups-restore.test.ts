/**
 * `npm run restore` (issue 29): a wrong passphrase and a non-empty folder change nothing; --force moves the folder
 * aside; a restore into an empty folder gives a node whose memories, events, to-dos, messages, files, wallets,
 * plugins and sealed connection secrets answer as before, with no ENCRYPTION_KEY in its environment.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ConnectionSecrets } from "../../extensions/twin/contract/connection-secrets.ts"
import { tempDir } from "../support/temp-dir.ts"
import { Client, run, startNode } from "../support/node.ts"
import { backupsNode, PASSPHRASE, PLUGIN_NOTE, runRestore } from "./backups-support.ts"

const context = backupsNode()

const window = { from: "2031-01-01T00:00:00Z", to: "2031-02-01T00:00:00Z" }

/** What the owner sees of their data, read through the routes. */
const observed = async (client: Client, threadId: string, fileId: string) => {
  const file = await fetch(`${client.base}/api/files/download?id=${encodeURIComponent(fileId)}`, {
    headers: { cookie: client.cookieHeader() }
  })
  return {
    memories: (await run(client.api.twin.searchMemories({ urlParams: { offset: 0 } })))
      .map((memory) => memory.content)
      .sort(),
    agenda: await run(client.api.twinTime.agenda({ urlParams: window })),
    todos: await run(client.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0 } })),
    messages: (await run(client.api.threads.listMessages({ path: { id: threadId } }))).map(
      (message) => message.content
    ),
    file: { status: file.status, text: await file.text() },
    wallet: await run(client.api.market.wallet())
  }
}

const environment = (dataDir: string, passphrase = PASSPHRASE) => ({
  DATA_DIR: dataDir,
  FILES_DIR: dataDir,
  PLUGIN_DIR: join(dataDir, "plugins"),
  BACKUP_PASSPHRASE: passphrase
})

describe("npm run restore", () => {
  it("restores into an empty folder a node that answers as before; refusals change nothing", async () => {
    const { client: owner, registration, being } = context.owner
    await run(owner.api.twin.createMemory({ payload: { content: "The spare key is under the blue pot" } }))
    await run(
      owner.api.twinTime.createEvent({
        payload: { title: "Choir", startAt: "2031-01-06T18:00:00Z", recurrence: "FREQ=WEEKLY;BYDAY=MO" }
      })
    )
    await run(
      owner.api.twinTime.createTodo({ payload: { title: "Renew the passport", dueAt: "2031-01-10T09:00:00Z" } })
    )
    const thread = await run(
      owner.api.threads.openThread({ payload: { kind: "direct", withBeingId: context.member.being.id } })
    )
    await run(owner.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "See you at choir" } }))
    const form = new FormData()
    form.append("file", new Blob(["the lease, page one"]), "lease.txt")
    const uploaded = await fetch(`${owner.base}/api/files/upload`, {
      method: "POST",
      body: form,
      headers: { cookie: owner.cookieHeader() }
    })
    const [fileEntry] = (await uploaded.json()) as Array<{ id: string }>
    await run(
      owner.api.connections.create({
        payload: { provider: "chat_b", label: "Work chat", config: { token: "xoxb-ada" } }
      })
    )
    const before = await observed(owner, thread.id, fileEntry!.id)
    expect(before.file).toEqual({ status: 200, text: "the lease, page one" })
    expect(before.agenda.length).toBeGreaterThanOrEqual(4)

    const backup = await run(owner.api.backups.create({ payload: { passphrase: PASSPHRASE } }))
    const file = join(context.node.dataDir, "backups", `${backup.id}.tar.gz.age`)

    // A wrong passphrase: a clear message, nothing written.
    const empty = join(tempDir("restore"), "data")
    const wrong = await runRestore([file], environment(empty, "not the passphrase at all"))
    expect(wrong).toMatchObject({ code: 1, output: expect.stringContaining("passphrase does not open") })
    expect(existsSync(empty)).toBe(false)

    // A damaged file: stopped, nothing written.
    const damaged = join(tempDir("damaged"), "backup.tar.gz.age")
    const bytes = readFileSync(file)
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff
    writeFileSync(damaged, bytes)
    expect(await runRestore([damaged], environment(empty))).toMatchObject({ code: 1 })
    expect(existsSync(empty)).toBe(false)

    // A folder with something in it: refused, then moved aside with --force.
    const occupied = join(tempDir("occupied"), "data")
    mkdirSync(occupied)
    writeFileSync(join(occupied, "keep-me.txt"), "mine")
    expect(await runRestore([file], environment(occupied))).toMatchObject({
      code: 1,
      output: expect.stringContaining("--force")
    })
    expect(readdirSync(occupied)).toEqual(["keep-me.txt"])
    const forced = await runRestore([file, "--force"], environment(occupied))
    expect(forced).toMatchObject({ code: 0, output: expect.stringContaining("Moved aside") })
    const aside = readdirSync(join(occupied, "..")).find((name) => name.startsWith("data.before-restore-"))
    expect(readFileSync(join(occupied, "..", aside!, "keep-me.txt"), "utf8")).toBe("mine")

    // Into an empty folder: the restored node answers as the first did.
    const restored = await runRestore([file], environment(empty))
    expect(restored).toMatchObject({ code: 0, output: expect.stringContaining("Restored the backup") })
    expect(readFileSync(join(empty, "plugins", "hello-plugin", "note.txt"), "utf8")).toBe(PLUGIN_NOTE)
    const node = await startNode({ pluginDir: join(empty, "plugins") }, { dataDir: empty })
    try {
      const again = new Client(node.url)
      await run(again.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
      expect(await observed(again, thread.id, fileEntry!.id)).toEqual(before)
      const token = await node.runtime.runPromise(
        Effect.flatMap(ConnectionSecrets, (secrets) => secrets.credential(being.id, "chat_b", "token"))
      )
      expect(Option.map(token, Redacted.value)).toEqual(Option.some("xoxb-ada"))
    } finally {
      await node.close()
    }
    // Six scrypt derivations (age's, about a second each), five restores and a node's start.
  }, 120_000)
})
