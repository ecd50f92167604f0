/**
 * The Connections routes over a real node (spec: "Connections", secrets at rest): the provider
 * registry, a being's own connections with their config checked against the provider's auth,
 * secret fields sealed in the database and never answered, non-secret ones in `meta`, another
 * being's connection a 404, every refusal changing nothing; and the integrations adapter using a
 * being's own chat_a and chat_b token before the node's, proved against loopback servers that
 * accept only the being's own token (mail_a's consent and Gmail: mail-a-consent.test.ts and mail-a-sync.test.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSlack, startTelegram } from "../support/chat-servers.ts"
import { ImapServer } from "../support/imap.ts"
import {
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

const adaBot = "777:ada-own-bot"
const nodeBot = "111:node-bot"
const adaSlack = "xoxp-ada-own"
const nodeSlack = "xoxb-node"

let telegram: Awaited<ReturnType<typeof startTelegram>>
let slack: Awaited<ReturnType<typeof startSlack>>
let imap: ImapServer
let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  telegram = await startTelegram(adaBot)
  slack = await startSlack(adaSlack)
  imap = await ImapServer.start()
  imap.deliver({
    from: "grace@example.org",
    subject: "Only Ada's mailbox has this",
    date: new Date("2026-01-01T00:00:00Z"),
    text: "hi"
  })
  node = await startNode((dataDir) => {
    mkdirSync(join(dataDir, "owner-folder", "notes"), { recursive: true })
    return {
      pluginDir: join(dataDir, "plugins"),
      encryptionKey: Option.some(Redacted.make("a long passphrase for the tests")),
      filesRoot: Option.some(join(dataDir, "owner-folder")),
      // The node's own accounts are ones the loopback servers refuse: a success proves the being's own was used.
      imapUrl: Option.some(Redacted.make(`imap://${imap.user}:wrong-pass@127.0.0.1:${imap.port}`)),
      chatAApiUrl: telegram.url,
      chatABotToken: Option.some(Redacted.make(nodeBot)),
      chatBApiUrl: slack.url,
      chatBToken: Option.some(Redacted.make(nodeSlack))
    }
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node?.close()
  await telegram.close()
  await slack.close()
  await imap.stop()
})

const rows = () =>
  node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql.unsafe<{ id: string; beingId: string; provider: string; meta: string; secret: string | null }>(
        `SELECT id, being_id AS "beingId", provider, meta, secret FROM twin_connections ORDER BY id`
      )
    )
  )

const invoke = (client: Client, name: string, input: Record<string, unknown>) =>
  run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))

describe("the provider registry", () => {
  it("lists the built-ins with how each is connected", async () => {
    const providers = await run(owner.client.api.connections.providers())
    expect(providers.map((provider) => provider.id)).toEqual(["mail_a", "chat_a", "chat_b", "files", "browser"])
    expect(providers.find((provider) => provider.id === "chat_a")).toMatchObject({
      origin: "builtin",
      pluginId: null,
      auth: { kind: "fields", fields: [{ name: "token", secret: true, required: true }] }
    })
    expect(providers.find((provider) => provider.id === "mail_a")).toMatchObject({
      auth: {
        kind: "oauth2",
        startPath: "/api/connections/mail_a/auth",
        scopes: expect.arrayContaining(["https://www.googleapis.com/auth/gmail.readonly"])
      },
      skills: ["email.read", "email.send"],
      syncable: true
    })
    expect(providers.find((provider) => provider.id === "files")).toMatchObject({
      auth: { kind: "path", field: "path" },
      syncable: true
    })
  })
})

/** A third-party plugin contributing a provider: an `integration` with its auth. */
const diaryPlugin = () => {
  const dir = join(node.dataDir, "plugins", "diary")
  mkdirSync(dir, { recursive: true })
  const provider = {
    icon: "D",
    syncable: true,
    cadenceMs: 3_600_000,
    auth: {
      kind: "fields",
      fields: [
        { name: "account", label: "Account", secret: false },
        { name: "apiKey", label: "API key" }
      ]
    }
  }
  writeFileSync(
    join(dir, "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      version: "1.0.0",
      name: "diary",
      id: "@ada/diary",
      namespace: "diary",
      main: "index.js",
      capabilities: [],
      extensions: [
        { kind: "integration", id: "notes", title: "Diary notes", description: "Entries of a diary service", uses: [] }
      ]
    })
  )
  writeFileSync(
    join(dir, "index.js"),
    `export const activate = (context) => context.contribute("integration", "notes", ${JSON.stringify(provider)})\n`
  )
}

describe("a plugin's provider", () => {
  it("joins the registry on install, takes connections by its own auth, and leaves on uninstall", async () => {
    diaryPlugin()
    const installed = await run(owner.client.api.plugins.installPlugin({ payload: { dir: "diary", granted: [] } }))
    const listed = (await run(member.client.api.connections.providers())).find(
      (provider) => provider.id === "diary.notes"
    )
    expect(listed).toEqual({
      id: "diary.notes",
      title: "Diary notes",
      description: "Entries of a diary service",
      icon: "D",
      origin: "plugin",
      pluginId: "@ada/diary",
      auth: {
        kind: "fields",
        fields: [
          { name: "account", label: "Account", secret: false, help: "", placeholder: "", required: true },
          { name: "apiKey", label: "API key", secret: true, help: "", placeholder: "", required: true }
        ]
      },
      grants: [],
      skills: [],
      cadenceMs: 3_600_000,
      syncable: true
    })
    const diary = await run(
      member.client.api.connections.create({
        payload: { provider: "diary.notes", config: { account: "grace", apiKey: "dk-grace-secret" } }
      })
    )
    expect(diary).toMatchObject({
      provider: "diary.notes",
      label: "Diary notes",
      status: "connected",
      meta: { account: "grace" }
    })
    expect(JSON.stringify(diary)).not.toContain("dk-grace-secret")
    expect((await rows()).find((row) => row.id === diary.id)?.secret).toMatch(/^nv2\./)

    await run(owner.client.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent(installed.id) } }))
    expect(
      (await run(member.client.api.connections.providers())).some((provider) => provider.id === "diary.notes")
    ).toBe(false)
    expect(
      await refused(member.client.api.connections.create({ payload: { provider: "diary.notes", config: {} } }))
    ).toMatchObject({ status: 404, body: { error: "unknown_provider" } })
    await run(member.client.api.connections.remove({ path: { id: diary.id } }))
  })
})

describe("a being's own connections", () => {
  it("seals the secret fields, answers none of them, and the skills use the being's own token first", async () => {
    // Before: the node's bot token, which this Bot API server refuses.
    expect(await invoke(owner.client, "chat_a.send", { chatId: 4242, text: "via the node" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unauthorized")
    })

    const chatA = await run(
      owner.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaBot } } })
    )
    expect(chatA).toMatchObject({
      provider: "chat_a",
      label: "Chat A (Telegram)",
      status: "pending",
      meta: {},
      lastSyncAt: null,
      beingId: owner.being.id
    })
    const chatB = await run(
      owner.client.api.connections.create({
        payload: { provider: "chat_b", label: "Work Slack", config: { token: adaSlack } }
      })
    )
    expect(chatB).toMatchObject({ label: "Work Slack", status: "connected" })

    const answers = JSON.stringify([
      chatA,
      chatB,
      await run(owner.client.api.connections.list()),
      await run(owner.client.api.connections.get({ path: { id: chatA.id } }))
    ])
    for (const secret of [adaBot, adaSlack]) expect(answers).not.toContain(secret)

    const stored = (await rows()).filter((row) => row.beingId === owner.being.id)
    expect(stored).toHaveLength(2)
    for (const row of stored) {
      expect(row.secret).toMatch(/^nv2\.[A-Za-z0-9+/]+=*\.[A-Za-z0-9+/]+=*$/)
      for (const secret of [adaBot, adaSlack]) expect(`${row.meta}${row.secret}`).not.toContain(secret)
    }

    expect(await invoke(owner.client, "chat_a.send", { chatId: 4242, text: "from my own bot" })).toMatchObject({
      ok: true,
      output: { via: "connection" }
    })
    expect(telegram.received.at(-1)?.path).toBe(`/bot${adaBot}/sendMessage`)
    expect(
      await invoke(owner.client, "chat_b.send", { channel: "C0123456789", text: "from my own workspace" })
    ).toMatchObject({ ok: true, output: { via: "connection" } })
    expect(slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${adaSlack}`)
    // Ada connected no mailbox: email.read reads the node's IMAP_URL, which this server refuses.
    expect(await invoke(owner.client, "email.read", { limit: 5 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("refused the login")
    })

    // Another being has none of them: the node's settings answer its calls.
    expect(await run(member.client.api.connections.list())).toEqual([])
    expect(await invoke(member.client, "chat_a.send", { chatId: 4242, text: "via the node" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unauthorized")
    })
  })

  it("keeps another being's connection out of reach: a 404, as if it did not exist", async () => {
    const [chatA] = (await run(owner.client.api.connections.list())).filter(
      (connection) => connection.provider === "chat_a"
    )
    const path = { id: chatA!.id }
    for (const refusal of [
      await refused(member.client.api.connections.get({ path })),
      await refused(member.client.api.connections.update({ path, payload: { label: "mine now" } })),
      await refused(member.client.api.connections.remove({ path }))
    ]) {
      expect(refusal).toMatchObject({ status: 404, body: { error: "not_found" } })
    }
    expect((await run(owner.client.api.connections.get({ path }))).label).toBe("Chat A (Telegram)")
  })

  it("refuses a config that does not fit the provider, changing nothing", async () => {
    const before = await rows()
    const create = (payload: Parameters<typeof member.client.api.connections.create>[0]["payload"]) =>
      refused(member.client.api.connections.create({ payload }))
    expect(await create({ provider: "nope", config: {} })).toMatchObject({
      status: 404,
      body: { error: "unknown_provider", details: { providers: expect.arrayContaining(["chat_a"]) } }
    })
    expect(
      await member.client.raw("POST", "/api/connections", { provider: "Not A Provider", config: {} })
    ).toMatchObject({ status: 400 })
    expect(await create({ provider: "chat_a", config: {} })).toMatchObject({
      status: 400,
      body: { error: "invalid_config", details: { missing: ["token"] } }
    })
    expect(await create({ provider: "chat_a", config: { token: "  " } })).toMatchObject({
      status: 400,
      body: { error: "invalid_config" }
    })
    expect(await create({ provider: "chat_a", config: { token: "1:x", password: "y" } })).toMatchObject({
      status: 400,
      body: { error: "invalid_config", details: { unknown: ["password"] } }
    })
    // mail_a is connected through its consent screen only: a config, however plausible, is refused.
    const badMail = await create({ provider: "mail_a", config: { imapUrl: "imaps://user:hunter2@example.org" } })
    expect(badMail).toMatchObject({
      status: 400,
      body: { error: "invalid_config", details: { provider: "mail_a", startPath: "/api/connections/mail_a/auth" } }
    })
    expect(JSON.stringify(badMail)).not.toContain("hunter2")
    expect(await create({ provider: "files", config: { path: "notes" } })).toMatchObject({ status: 403 })
    expect(
      await refused(
        owner.client.api.connections.create({ payload: { provider: "chat_a", config: { token: "222:second" } } })
      )
    ).toMatchObject({
      status: 409,
      body: { error: "already_connected", details: { connectionId: expect.any(String) } }
    })
    expect(
      await refused(
        owner.client.api.connections.create({ payload: { provider: "files", config: { path: "../outside" } } })
      )
    ).toMatchObject({ status: 400, body: { error: "invalid_path" } })
    expect(await owner.client.raw("GET", "/api/connections/not-a-uuid")).toMatchObject({ status: 400 })
    expect(await rows()).toEqual(before)
  })

  it("mirrors a path provider's field into meta, with nothing sealed", async () => {
    const files = await run(
      owner.client.api.connections.create({ payload: { provider: "files", config: { path: "notes/" } } })
    )
    expect(files).toMatchObject({ provider: "files", status: "connected", meta: { path: "notes" } })
    expect((await rows()).find((row) => row.id === files.id)?.secret).toBeNull()
    const status = await run(owner.client.api.twin.status())
    expect(status.providers.find((provider) => provider.provider === "files")).toMatchObject({
      connected: true,
      connectionId: files.id,
      meta: { path: "notes" }
    })
  })

  it("changes a label and replaces a config, sealing the new secret; a delete returns the calls to the node's account", async () => {
    const [chatB] = (await run(owner.client.api.connections.list())).filter(
      (connection) => connection.provider === "chat_b"
    )
    const path = { id: chatB!.id }
    const sealedBefore = (await rows()).find((row) => row.id === chatB!.id)?.secret
    expect(await run(owner.client.api.connections.update({ path, payload: { label: "Slack at home" } }))).toMatchObject(
      { label: "Slack at home", status: "connected" }
    )
    expect((await rows()).find((row) => row.id === chatB!.id)?.secret).toBe(sealedBefore)
    expect(await refused(owner.client.api.connections.update({ path, payload: { config: {} } }))).toMatchObject({
      status: 400,
      body: { details: { missing: ["token"] } }
    })
    await run(owner.client.api.connections.update({ path, payload: { config: { token: "xoxp-replaced" } } }))
    const sealedAfter = (await rows()).find((row) => row.id === chatB!.id)?.secret
    expect(sealedAfter).not.toBe(sealedBefore)
    expect(
      await invoke(owner.client, "chat_b.send", { channel: "C0123456789", text: "with the new token" })
    ).toMatchObject({ ok: false, error: expect.stringContaining("invalid_auth") })

    expect(await run(owner.client.api.connections.remove({ path }))).toEqual({ ok: true })
    expect(await refused(owner.client.api.connections.get({ path }))).toMatchObject({ status: 404 })
    expect((await rows()).some((row) => row.id === chatB!.id)).toBe(false)
    const viaNode = await invoke(owner.client, "chat_b.send", {
      channel: "C0123456789",
      text: "the node's token again"
    })
    expect(viaNode).toMatchObject({ ok: false, error: expect.stringContaining("invalid_auth") })
    expect(slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${nodeSlack}`)
  })
})

describe("a node without ENCRYPTION_KEY", () => {
  let bare: TestNode
  let someone: Registered
  beforeAll(async () => {
    bare = await startNode({ encryptionKey: Option.none() })
    someone = await registerOwner(bare)
  })
  afterAll(() => bare?.close())

  it("refuses to save a secret, saying what to set, and stores nothing", async () => {
    const refusal = await refused(
      someone.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaBot } } })
    )
    expect(refusal).toMatchObject({
      status: 409,
      body: { error: "encryption_not_configured", message: expect.stringContaining("set ENCRYPTION_KEY") }
    })
    expect(JSON.stringify(refusal)).not.toContain(adaBot)
    expect(await run(someone.client.api.connections.list())).toEqual([])
  })
})

describe("after a restart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "connections-restart-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  const settings = (key: string) => ({
    dataDir,
    encryptionKey: Option.some(Redacted.make(key)),
    chatAApiUrl: telegram.url,
    chatABotToken: Option.some(Redacted.make(nodeBot))
  })
  it("still lends the being's own token under the same key, and nothing under another: the node's account answers", async () => {
    const first = await startNode(settings("the first key"))
    const ada = await registerOwner(first)
    await run(ada.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaBot } } }))
    await first.close()

    const same = await startNode(settings("the first key"))
    const sameClient = new Client(same.url)
    await run(
      sameClient.api.authPublic.login({
        payload: { email: ada.registration.email, password: ada.registration.password }
      })
    )
    expect(await invoke(sameClient, "chat_a.send", { chatId: 4242, text: "same key" })).toMatchObject({
      ok: true,
      output: { via: "connection" }
    })
    expect(telegram.received.at(-1)?.path).toBe(`/bot${adaBot}/sendMessage`)
    await same.close()

    const other = await startNode(settings("another key"))
    const otherClient = new Client(other.url)
    await run(
      otherClient.api.authPublic.login({
        payload: { email: ada.registration.email, password: ada.registration.password }
      })
    )
    expect(await invoke(otherClient, "chat_a.send", { chatId: 4242, text: "another key" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unauthorized")
    })
    expect(telegram.received.at(-1)?.path).toBe(`/bot${nodeBot}/sendMessage`)
    await other.close()
  })
})
