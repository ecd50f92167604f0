/**
 * A webhook provider's deliveries over real HTTP: the sample plugin's `notebook.inbox`
 * (`verify: 'hmac-sha256'`) and a `shared-secret` one. Another service posts JSON to
 * `POST /api/twin/webhooks/<provider>/<connectionId>` without a session, from anywhere (a wire
 * route); a delivery that verifies against the connection's secret is handed to the plugin's
 * `receive` and each item becomes a memory. Every refusal stores nothing: a bad or missing
 * signature and an unknown connection get the same 401, an oversize body 413, another content
 * type 415, and an answer that does not fit ProviderSyncResult 400.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHmac } from "node:crypto"
import { cpSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")
const secret = "whsec-ada-and-the-notebook"

let node: TestNode
let owner: Registered
let member: Registered
let inbox: string

beforeAll(async () => {
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  cpSync(example, join(node.dataDir, "plugins", "notebook"), { recursive: true })
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "relay",
    {
      extensions: [{ kind: "integration", id: "hook", title: "Relay hook", uses: [] }]
    },
    `export const activate = (context) => context.contribute("integration", "hook", {
  auth: { kind: "webhook", path: "ignored", verify: "shared-secret" },
  receive: async ({ body }) => JSON.parse(body)
})
`
  )
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "open",
    {
      extensions: [{ kind: "integration", id: "hook", title: "Open hook", uses: [] }]
    },
    `export const activate = (context) => context.contribute("integration", "hook", {
  auth: { kind: "webhook", path: "open", verify: "none" },
  receive: async ({ body, meta }) => ({ items: [{ id: "o1", text: body }] })
})
`
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "open", granted: [] } }))
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: ["filesystem", "storage"] } })
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "relay", granted: [] } }))
  inbox = (
    await run(member.client.api.connections.create({ payload: { provider: "notebook.inbox", config: { secret } } }))
  ).id
})
afterAll(() => node.close())

const sign = (body: string, key = secret) => `sha256=${createHmac("sha256", key).update(body).digest("hex")}`

const deliver = async (path: string, body: string, headers: Record<string, string>) => {
  const response = await fetch(node.url + path, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers }
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const memories = (who: Registered) => run(who.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))

const notes = (...texts: ReadonlyArray<string>) =>
  JSON.stringify({ notes: texts.map((text, index) => ({ id: `n${index + 1}-${text.length}`, text })) })

describe("a webhook provider", () => {
  it("shows the node's delivery route in its descriptor, whatever path the plugin named", async () => {
    const providers = await run(member.client.api.connections.providers())
    expect(providers.find((provider) => provider.id === "notebook.inbox")).toMatchObject({
      origin: "plugin",
      auth: { kind: "webhook", path: "/api/twin/webhooks/notebook.inbox/:connectionId", verify: "hmac-sha256" }
    })
    expect(providers.find((provider) => provider.id === "relay.hook")?.auth).toEqual({
      kind: "webhook",
      path: "/api/twin/webhooks/relay.hook/:connectionId",
      verify: "shared-secret"
    })
  })

  it("takes a delivery signed with the connection's secret, from another site, each item a memory of the being", async () => {
    const body = notes("The parcel arrives on Thursday", "Book the dentist")
    const answer = await deliver(`/api/twin/webhooks/notebook.inbox/${inbox}`, body, {
      "x-signature": sign(body),
      origin: "https://hooks.example.com"
    })
    expect(answer).toEqual({ status: 200, body: { received: 2, remembered: 2 } })
    const mine = await memories(member)
    expect(mine.map((memory) => memory.content).join("\n")).toContain("The parcel arrives on Thursday")
    expect(mine.map((memory) => memory.source)).toContain("notebook.inbox:n2-16")
    expect(await memories(owner)).toEqual([])
    const activity = await run(member.client.api.twin.listActivity({ urlParams: { kind: "learned", offset: 0 } }))
    expect(activity.map((entry) => entry.summary)).toContain("Received 2 new from Notebook inbox")

    // The same delivery again remembers nothing twice.
    expect(await deliver(`/api/twin/webhooks/notebook.inbox/${inbox}`, body, { "x-signature": sign(body) })).toEqual({
      status: 200,
      body: { received: 2, remembered: 0 }
    })
  })

  it("answers a bad or missing signature and an unknown connection alike, 401, storing nothing", async () => {
    const before = (await memories(member)).length
    const body = notes("Forged note")
    const unverified = {
      status: 401,
      body: { error: "invalid_signature", message: expect.stringContaining("does not verify") }
    }
    for (const [path, headers] of [
      [`/api/twin/webhooks/notebook.inbox/${inbox}`, { "x-signature": sign(body, "not-the-secret") }],
      [`/api/twin/webhooks/notebook.inbox/${inbox}`, { "x-signature": sign(body).replace("sha256=", "") }],
      [`/api/twin/webhooks/notebook.inbox/${inbox}`, { "x-signature": sign(notes("Another body")) }],
      [`/api/twin/webhooks/notebook.inbox/${inbox}`, {}],
      [`/api/twin/webhooks/notebook.inbox/${crypto.randomUUID()}`, { "x-signature": sign(body) }],
      // The connection exists, but not for this provider.
      [`/api/twin/webhooks/relay.hook/${inbox}`, { "x-webhook-secret": secret }],
      [`/api/twin/webhooks/notebook.nothing/${inbox}`, { "x-signature": sign(body) }]
    ] as const) {
      const answer = await deliver(path, body, headers)
      expect(answer, path).toMatchObject(unverified)
      expect(JSON.stringify(answer.body)).not.toContain(secret)
    }
    expect(await memories(member)).toHaveLength(before)
  })

  it("refuses an oversize body (413) and another content type (415) before reading it", async () => {
    const before = (await memories(member)).length
    const huge = notes("x".repeat(70_000))
    expect(
      await deliver(`/api/twin/webhooks/notebook.inbox/${inbox}`, huge, { "x-signature": sign(huge) })
    ).toMatchObject({ status: 413, body: { error: "payload_too_large" } })
    const form = "notes=hello"
    expect(
      await deliver(`/api/twin/webhooks/notebook.inbox/${inbox}`, form, {
        "content-type": "application/x-www-form-urlencoded",
        "x-signature": sign(form)
      })
    ).toMatchObject({ status: 415, body: { error: "unsupported_media_type" } })
    expect(await memories(member)).toHaveLength(before)
  })

  it("checks a shared-secret provider's header, and stores nothing from an answer that does not fit ProviderSyncResult", async () => {
    const hook = (
      await run(
        member.client.api.connections.create({
          payload: { provider: "relay.hook", config: { secret: "relay-shared" } }
        })
      )
    ).id
    const before = (await memories(member)).length
    const good = JSON.stringify({ items: [{ id: "r1", text: "Relayed: the meeting moved to ten" }] })
    expect(
      await deliver(`/api/twin/webhooks/relay.hook/${hook}`, good, { "x-webhook-secret": "relay-other" })
    ).toMatchObject({ status: 401 })
    expect(
      await deliver(`/api/twin/webhooks/relay.hook/${hook}`, good, { "x-webhook-secret": "relay-shared" })
    ).toEqual({ status: 200, body: { received: 1, remembered: 1 } })

    const bad = JSON.stringify({
      items: [
        { id: "r2", text: "fine" },
        { id: "r3", text: "" }
      ]
    })
    const refused = await deliver(`/api/twin/webhooks/relay.hook/${hook}`, bad, { "x-webhook-secret": "relay-shared" })
    expect(refused).toMatchObject({
      status: 400,
      body: { error: "invalid_delivery", message: expect.stringContaining("does not fit ProviderSyncResult") }
    })
    expect(await memories(member)).toHaveLength(before + 1)
  })

  it("takes an unsigned delivery for a provider that verifies nothing, the connection's id its only key, while it is connected", async () => {
    const open = (await run(owner.client.api.connections.create({ payload: { provider: "open.hook", config: {} } }))).id
    const body = JSON.stringify({ said: "an unsigned hello" })
    expect(await deliver(`/api/twin/webhooks/open.hook/${open}`, body, {})).toEqual({
      status: 200,
      body: { received: 1, remembered: 1 }
    })
    expect((await memories(owner)).map((memory) => memory.content).join("\n")).toContain("an unsigned hello")
    await run(owner.client.api.connections.remove({ path: { id: open } }))
    expect(await deliver(`/api/twin/webhooks/open.hook/${open}`, JSON.stringify({ said: "after" }), {})).toMatchObject({
      status: 401,
      body: { error: "invalid_signature" }
    })
  })
})
