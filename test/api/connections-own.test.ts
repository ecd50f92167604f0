/**
 * A being's own connections over a real node (spec: "Connections", secrets at rest): config
 * checked against the provider's auth, secret fields sealed in the database and never answered,
 * non-secret ones in `meta`, another being's connection a 404, every refusal changing nothing; and
 * the integrations adapter using a being's own chat_a and chat_b token before the node's, proved
 * against loopback servers that accept only the being's own token, also after a restart (mail_a's
 * consent and Gmail: mail-a-consent.test.ts and mail-a-sync.test.ts).
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { Client, refused, registerOwner, run, startNode } from "../support/node.ts"
import { adaBot, adaSlack, connectionsNode, invoke, nodeBot, nodeSlack, rows } from "./connections-support.ts"

const context = connectionsNode()

describe("a being's own connections", () => {
  it("seals the secret fields, answers none of them, and the skills use the being's own token first", async () => {
    // Before: the node's bot token, which this Bot API server refuses.
    expect(await invoke(context.owner.client, "chat_a.send", { chatId: 4242, text: "via the node" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unauthorized")
    })

    const chatA = await run(
      context.owner.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaBot } } })
    )
    expect(chatA).toMatchObject({
      provider: "chat_a",
      label: "Chat A (Telegram)",
      status: "pending",
      meta: {},
      lastSyncAt: null,
      beingId: context.owner.being.id
    })
    const chatB = await run(
      context.owner.client.api.connections.create({
        payload: { provider: "chat_b", label: "Work Slack", config: { token: adaSlack } }
      })
    )
    expect(chatB).toMatchObject({ label: "Work Slack", status: "connected" })

    const answers = JSON.stringify([
      chatA,
      chatB,
      await run(context.owner.client.api.connections.list()),
      await run(context.owner.client.api.connections.get({ path: { id: chatA.id } }))
    ])
    for (const secret of [adaBot, adaSlack]) expect(answers).not.toContain(secret)

    const stored = (await rows(context)).filter((row) => row.beingId === context.owner.being.id)
    expect(stored).toHaveLength(2)
    for (const row of stored) {
      expect(row.secret).toMatch(/^nv2\.[A-Za-z0-9+/]+=*\.[A-Za-z0-9+/]+=*$/)
      for (const secret of [adaBot, adaSlack]) expect(`${row.meta}${row.secret}`).not.toContain(secret)
    }

    expect(await invoke(context.owner.client, "chat_a.send", { chatId: 4242, text: "from my own bot" })).toMatchObject({
      ok: true,
      output: { via: "connection" }
    })
    expect(context.telegram.received.at(-1)?.path).toBe(`/bot${adaBot}/sendMessage`)
    expect(
      await invoke(context.owner.client, "chat_b.send", { channel: "C0123456789", text: "from my own workspace" })
    ).toMatchObject({ ok: true, output: { via: "connection" } })
    expect(context.slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${adaSlack}`)
    // Ada connected no mailbox: email.read reads the node's IMAP_URL, which this server refuses.
    expect(await invoke(context.owner.client, "email.read", { limit: 5 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("refused the login")
    })

    // Another being has none of them: the node's settings answer its calls.
    expect(await run(context.member.client.api.connections.list())).toEqual([])
    expect(await invoke(context.member.client, "chat_a.send", { chatId: 4242, text: "via the node" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Unauthorized")
    })
  })

  it("keeps another being's connection out of reach: a 404, as if it did not exist", async () => {
    const [chatA] = (await run(context.owner.client.api.connections.list())).filter(
      (connection) => connection.provider === "chat_a"
    )
    const path = { id: chatA!.id }
    for (const refusal of [
      await refused(context.member.client.api.connections.get({ path })),
      await refused(context.member.client.api.connections.update({ path, payload: { label: "mine now" } })),
      await refused(context.member.client.api.connections.remove({ path }))
    ]) {
      expect(refusal).toMatchObject({ status: 404, body: { error: "not_found" } })
    }
    expect((await run(context.owner.client.api.connections.get({ path }))).label).toBe("Chat A (Telegram)")
  })

  it("refuses a config that does not fit the provider, changing nothing", async () => {
    const before = await rows(context)
    const create = (payload: Parameters<typeof context.member.client.api.connections.create>[0]["payload"]) =>
      refused(context.member.client.api.connections.create({ payload }))
    expect(await create({ provider: "nope", config: {} })).toMatchObject({
      status: 404,
      body: { error: "unknown_provider", details: { providers: expect.arrayContaining(["chat_a"]) } }
    })
    expect(
      await context.member.client.raw("POST", "/api/connections", { provider: "Not A Provider", config: {} })
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
        context.owner.client.api.connections.create({
          payload: { provider: "chat_a", config: { token: "222:second" } }
        })
      )
    ).toMatchObject({
      status: 409,
      body: { error: "already_connected", details: { connectionId: expect.any(String) } }
    })
    expect(
      await refused(
        context.owner.client.api.connections.create({ payload: { provider: "files", config: { path: "../outside" } } })
      )
    ).toMatchObject({ status: 400, body: { error: "invalid_path" } })
    expect(await context.owner.client.raw("GET", "/api/connections/not-a-uuid")).toMatchObject({ status: 400 })
    expect(await rows(context)).toEqual(before)
  })

  it("mirrors a path provider's field into meta, with nothing sealed", async () => {
    const files = await run(
      context.owner.client.api.connections.create({ payload: { provider: "files", config: { path: "notes/" } } })
    )
    expect(files).toMatchObject({ provider: "files", status: "connected", meta: { path: "notes" } })
    expect((await rows(context)).find((row) => row.id === files.id)?.secret).toBeNull()
    const status = await run(context.owner.client.api.twin.status())
    expect(status.providers.find((provider) => provider.provider === "files")).toMatchObject({
      connected: true,
      connectionId: files.id,
      meta: { path: "notes" }
    })
  })

  it("changes a label and replaces a config, sealing the new secret; a delete returns the calls to the node's account", async () => {
    const [chatB] = (await run(context.owner.client.api.connections.list())).filter(
      (connection) => connection.provider === "chat_b"
    )
    const path = { id: chatB!.id }
    const sealedBefore = (await rows(context)).find((row) => row.id === chatB!.id)?.secret
    expect(
      await run(context.owner.client.api.connections.update({ path, payload: { label: "Slack at home" } }))
    ).toMatchObject({ label: "Slack at home", status: "connected" })
    expect((await rows(context)).find((row) => row.id === chatB!.id)?.secret).toBe(sealedBefore)
    expect(await refused(context.owner.client.api.connections.update({ path, payload: { config: {} } }))).toMatchObject(
      {
        status: 400,
        body: { details: { missing: ["token"] } }
      }
    )
    await run(context.owner.client.api.connections.update({ path, payload: { config: { token: "xoxp-replaced" } } }))
    const sealedAfter = (await rows(context)).find((row) => row.id === chatB!.id)?.secret
    expect(sealedAfter).not.toBe(sealedBefore)
    expect(
      await invoke(context.owner.client, "chat_b.send", { channel: "C0123456789", text: "with the new token" })
    ).toMatchObject({ ok: false, error: expect.stringContaining("invalid_auth") })

    expect(await run(context.owner.client.api.connections.remove({ path }))).toEqual({ ok: true })
    expect(await refused(context.owner.client.api.connections.get({ path }))).toMatchObject({ status: 404 })
    expect((await rows(context)).some((row) => row.id === chatB!.id)).toBe(false)
    const viaNode = await invoke(context.owner.client, "chat_b.send", {
      channel: "C0123456789",
      text: "the node's token again"
    })
    expect(viaNode).toMatchObject({ ok: false, error: expect.stringContaining("invalid_auth") })
    expect(context.slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${nodeSlack}`)
  })
})

describe("after a restart", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "connections-restart-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
  const settings = (key: string) => ({
    dataDir,
    encryptionKey: Option.some(Redacted.make(key)),
    chatAApiUrl: context.telegram.url,
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
    expect(context.telegram.received.at(-1)?.path).toBe(`/bot${adaBot}/sendMessage`)
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
    expect(context.telegram.received.at(-1)?.path).toBe(`/bot${nodeBot}/sendMessage`)
    await other.close()
  })
})
