/**
 * What leaves the host (docs/privacy.md), observed: a node started as its own process with
 * test/support/egress-hook.ts preloaded records every outbound socket it opens. Driven through
 * its representative flows (a Muse reply from the scripted model server, a mail through the
 * local SMTP server, a federation handshake with a peer, a web.fetch of a loopback page), it
 * dials exactly the addresses its settings and its users' acts name, and nothing else. The
 * federation's own services too: enrolment and collects at SVC_RELAY_ENDPOINT, registration
 * and a handle's resolve at DIRECTORY_ENDPOINT, a deposit at the relay the owner set on a peer
 * nobody can dial. The check is shown to fail: a page nobody listed is flagged, and calls
 * without their setting (web.search without SEARCH_URL, chat without a token) dial nothing.
 * The services a person connects (mail, chat, tiers, search, a plugin's OAuth) are in
 * egress-services.test.ts.
 */
import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import {
  dialled as dialledIn,
  egressHook,
  expectOnly,
  hostPort,
  onHost,
  unlisted as unlistedIn
} from "../support/egress.ts"
import { capabilitiesOf, newKeyPair } from "../support/federation.ts"
import { until } from "../support/until.ts"
import { freePort } from "../support/free-port.ts"
import {
  Client,
  person,
  refused,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { recordingProxy, type RecordingProxy } from "../support/recording-proxy.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { skillsMain, writePluginFolder } from "../support/plugin-folder.ts"
import { SmtpServer } from "../support/smtp.ts"

const logDir = mkdtempSync(join(tmpdir(), "egress-"))
const egressLog = join(logDir, "egress.log")
const pluginDir = join(logDir, "plugins")
const bareLog = join(logDir, "bare.log")

let models: OpenAiServer
let smtp: SmtpServer
let pages: Array<Server>
let peer: TestNode
let peerOwner: Registered
/**
 * The peer runs as a relay and a directory; the node reaches each role through its own proxy, so each is its own
 * destination.
 */
let relay: RecordingProxy
let directory: RecordingProxy
let peersRelay: RecordingProxy
/** A node listed at the peer's directory: the owner adds it by its owner's handle. */
let listed: TestNode
let listedOwner: Registered
let node: ChildNode
/** A node given no setting at all, as `npm start` runs it. */
let bare: ChildNode
let owner: Client

/** A loopback page, standing for a site on the web. */
const startPage = async (title: string) => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" })
    response.end(`<html><head><title>${title}</title></head><body><p>${title}</p></body></html>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  pages.push(server)
  const address = server.address()
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/`
}

/** Every destination the node dialled so far, once each. */
const dialled = () => dialledIn(egressLog)

/** The destinations outside the allowed list: what the test fails on. */
const unlisted = (allowed: ReadonlyArray<string>) => unlistedIn(egressLog, allowed)

const invoke = (name: string, input: Record<string, unknown>) =>
  run(owner.api.studioSkills.invokeSkill({ payload: { name, input } }))

beforeAll(async () => {
  pages = []
  writeFileSync(egressLog, "")
  writeFileSync(bareLog, "")
  // A plugin granted nothing, whose skills try the network anyway.
  writePluginFolder(
    pluginDir,
    "snoop",
    {
      extensions: [
        { kind: "skill", id: "adapter", uses: [] },
        { kind: "skill", id: "socket", uses: [] }
      ]
    },
    skillsMain({
      adapter: "return context.adapters.network.get({ url: input.text, maxBytes: 100, timeoutMs: 1000 })",
      socket: "return fetch(input.text)"
    })
  )
  // A plugin granted network: what its code asks for goes out through its adapter.
  writePluginFolder(
    pluginDir,
    "reader",
    {
      capabilities: [{ kind: "network", reason: "reads pages" }],
      extensions: [{ kind: "skill", id: "page", uses: ["network"] }]
    },
    skillsMain({
      page: "return context.adapters.network.get({ url: input.text, maxBytes: 1000, timeoutMs: 2000 })"
    })
  )
  ;[models, smtp] = await Promise.all([startOpenAiServer(), SmtpServer.start()])
  peer = await startNode({ relayOn: true, directoryOn: true })
  ;[relay, directory, peersRelay] = await Promise.all([
    recordingProxy(peer.url),
    recordingProxy(peer.url),
    recordingProxy(peer.url)
  ])
  const peerStarted = Promise.all([
    registerOwner(peer).then((registered) => {
      peerOwner = registered
    }),
    startNode({ directoryEndpoint: Option.some(peer.url) }).then(async (started) => {
      listed = started
      listedOwner = await registerOwner(started)
      // A flush runs the directory loop: the owner's handle is new since its first pass at start.
      await run(listedOwner.client.api.federation.flush())
    })
  ])
  ;[node, bare] = await Promise.all([
    startChildNode({
      nodeFlags: ["--import", egressHook],
      env: {
        EGRESS_LOG: egressLog,
        LLM_BASE_URL: models.baseUrl,
        LLM_API_KEY: "sk-test-egress",
        LLM_LOCAL: "false",
        SMTP_URL: smtp.url,
        MAIL_FROM: "node@example.org",
        WEB_ALLOW_PRIVATE: "true",
        PLUGIN_DIR: pluginDir,
        SVC_RELAY_ENDPOINT: relay.url,
        DIRECTORY_ENDPOINT: directory.url
      }
    }),
    startChildNode({ nodeFlags: ["--import", egressHook], env: { EGRESS_LOG: bareLog } }),
    peerStarted
  ])
  owner = new Client(node.url)
  await run(owner.api.authPublic.register({ payload: person(node.ownerCode) }))
}, 60_000)

afterAll(async () => {
  await Promise.all([node?.close(), bare?.close()])
  await Promise.all([
    models?.close(),
    peer?.close(),
    listed?.close(),
    relay?.close(),
    directory?.close(),
    peersRelay?.close(),
    ...(pages ?? []).map((server) => new Promise((resolve) => server.close(resolve)))
  ])
  smtp?.stop()
  rmSync(logDir, { recursive: true, force: true })
})

describe("what leaves the host", () => {
  it("is only what the settings and the users' acts name: the model tier, the SMTP server, a peer, a page asked for", async () => {
    // A Muse reply: the prompt goes to the tier's remote binding (LLM_BASE_URL).
    models.script("chat", { content: "Hello from the scripted model." })
    const [muse] = await run(owner.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    await run(owner.api.threads.postMessage({ path: { id: muse!.id }, payload: { content: "Say hello" } }))
    await vi.waitFor(
      async () => {
        const messages = await run(owner.api.threads.listMessages({ path: { id: muse!.id } }))
        expect(messages.some((message) => message.role === "assistant")).toBe(true)
      },
      { timeout: 10_000, interval: 50 }
    )

    // A mail: through SMTP_URL.
    const sent = await invoke("email.send", {
      to: "grace@example.org",
      subject: "Egress",
      text: "Only through SMTP_URL."
    })
    expect(sent).toMatchObject({ ok: true })
    await smtp.waitFor("grace@example.org")

    // Federation: the owner adds a peer by hand; the handshake goes to its endpoint.
    const [nodeDid, peerDid] = await Promise.all([
      capabilitiesOf({ url: node.url } as TestNode),
      capabilitiesOf(peer)
    ]).then((profiles) => profiles.map((profile) => profile.payload.did))
    await run(peerOwner.client.api.federation.addPeer({ payload: { nodeDid: nodeDid as never, endpoint: node.url } }))
    const session = await run(
      owner.api.federation.addPeer({ payload: { nodeDid: peerDid as never, endpoint: peer.url } })
    )
    expect(session.verified).toBe(true)

    // Web research: a page a user (or their agent) asked for.
    const page = await startPage("A page asked for")
    expect(await invoke("web.fetch", { url: page })).toMatchObject({ ok: true, output: { title: "A page asked for" } })
    // A plugin granted network: the page its code asks for, through its adapter.
    await run(owner.api.plugins.installPlugin({ payload: { dir: "reader", granted: ["network"] } }))
    const pluginsPage = await startPage("A page a plugin asked for")
    expect(await invoke("reader.page", { text: pluginsPage })).toMatchObject({ ok: true, output: { status: 200 } })

    // The relay and directory loops run from the start: their settings are on the list too.
    const allowed = [
      ...onHost,
      hostPort(relay.url),
      hostPort(directory.url),
      hostPort(models.baseUrl),
      hostPort(smtp.url),
      hostPort(peer.url),
      hostPort(page),
      hostPort(pluginsPage)
    ]
    // Each flow really went out (the hook sees fetch, http.request and raw sockets alike)...
    expect(dialled()).toEqual(
      expect.arrayContaining(
        allowed.filter(
          (destination) =>
            !onHost.includes(destination) &&
            destination !== hostPort(relay.url) &&
            destination !== hostPort(directory.url)
        )
      )
    )
    // ...and nothing else did.
    expect(unlisted(allowed)).toEqual([])
  }, 25_000)

  it("flags a destination nobody listed, and calls without their setting dial nothing", async () => {
    const before = dialled()
    // No SEARCH_URL: web.search answers no results without a connection; no chat token: chat_a.send refuses.
    expect(await invoke("web.search", { query: "anything" })).toMatchObject({ ok: true })
    const chat = await invoke("chat_a.send", { chatId: "1", text: "hello" })
    expect(chat, JSON.stringify(chat)).toMatchObject({ ok: false, error: expect.stringContaining("CHAT_A_BOT_TOKEN") })
    // A plugin without the network grant has no way out: no adapter, no fetch in its sandbox.
    await run(owner.api.plugins.installPlugin({ payload: { dir: "snoop", granted: [] } }))
    const unlistedPage = await startPage("Not for plugins")
    expect(await invoke("snoop.adapter", { text: unlistedPage })).toMatchObject({
      ok: false,
      error: expect.stringContaining("reading 'get'")
    })
    expect(await invoke("snoop.socket", { text: unlistedPage })).toMatchObject({
      ok: false,
      error: "fetch is not defined"
    })
    expect(dialled()).toEqual(before)

    // A page outside the list: the check fails on it, naming it.
    const stranger = await startPage("Not on the list")
    await invoke("web.fetch", { url: stranger })
    expect(unlisted(before)).toEqual([hostPort(stranger)])
  })

  it("the federation's services: enrolment and collects at SVC_RELAY_ENDPOINT, registration and resolves at DIRECTORY_ENDPOINT, a deposit at a peer's relay", async () => {
    const paths = (proxy: RecordingProxy) => proxy.crossings.map((crossing) => crossing.path)
    const [nodeDid, peerDid] = await Promise.all([
      capabilitiesOf({ url: node.url } as TestNode),
      capabilitiesOf(peer)
    ]).then((profiles) => profiles.map((profile) => profile.payload.did))
    // The relay: its owner added the node (the handshake above), so the node enrols there and collects (a flush runs
    // the loop's pass now).
    expect(await run(owner.api.federation.enrolRelay())).toMatchObject({ accepted: true, relay: peerDid })
    await run(owner.api.federation.flush())
    expect(paths(relay)).toEqual(
      expect.arrayContaining(["/api/federation/relay/enrolment", "/api/federation/relay/collect"])
    )
    // The directory: the owner's handle registered, and a handle the owner types resolved there.
    expect(await run(owner.api.federation.directoryStatus())).toMatchObject({
      registered: true,
      endpoint: directory.url
    })
    expect(
      (await refused(owner.api.federation.addPeerByHandle({ payload: { handle: "nobody-here" } }))).body
    ).toMatchObject({ error: "handle_not_resolved" })
    // A handle that resolves: the handshake goes to the endpoint the directory answered for it.
    await run(listedOwner.client.api.federation.addPeer({ payload: { nodeDid: nodeDid as never, endpoint: node.url } }))
    const byHandle = await run(
      owner.api.federation.addPeerByHandle({ payload: { handle: listedOwner.registration.handle } })
    )
    expect(byHandle).toMatchObject({ verified: true, peer: { endpoint: listed.url } })
    expect(paths(directory)).toEqual(
      expect.arrayContaining(["/api/federation/directory/register", "/api/federation/directory/resolve"])
    )
    // A peer nobody can dial, whose relay the owner set: the message is tried at its endpoint, then left at that relay.
    const nowhere = `http://127.0.0.1:${await freePort()}`
    const stranger = newKeyPair().did
    await run(
      owner.api.federation.addPeer({
        payload: { nodeDid: stranger as never, endpoint: nowhere, relay: peersRelay.url }
      })
    )
    const conversation = await run(
      owner.api.federation.openConversation({
        payload: { peerDid: stranger as never, remoteDid: newKeyPair().did as never }
      })
    )
    await run(
      owner.api.threads.postMessage({ path: { id: conversation.threadId }, payload: { content: "Left at the relay." } })
    )
    await until("the deposit at the peer's relay", () => paths(peersRelay).includes("/api/federation/relay/deposit"))

    const configured = [hostPort(models.baseUrl), hostPort(smtp.url), hostPort(peer.url)]
    const pagesAskedFor = pages.map((server) => {
      const address = server.address()
      return `127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    })
    expectOnly(
      egressLog,
      [relay, directory, peersRelay]
        .map((proxy) => hostPort(proxy.url))
        .concat(hostPort(nowhere), hostPort(listed.url)),
      [...configured, ...pagesAskedFor]
    )
  }, 25_000)

  it("with no setting given, dials nothing but its own machine, whatever its people ask", async () => {
    const client = new Client(bare.url)
    await run(client.api.authPublic.register({ payload: person(bare.ownerCode) }))
    // The Muse with no model bound (the default LLM_BASE_URL is remote, but there is no key): it says so and sends
    // nothing.
    const [muse] = await run(client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    await run(client.api.threads.postMessage({ path: { id: muse!.id }, payload: { content: "Say hello" } }))
    await vi.waitFor(
      async () => {
        expect((await run(client.api.threads.listMessages({ path: { id: muse!.id } }))).length).toBeGreaterThan(1)
      },
      { timeout: 10_000, interval: 50 }
    )
    for (const [name, input] of [
      ["web.search", { query: "anything" }],
      ["email.send", { to: "grace@example.org", subject: "Hi", text: "Hi" }],
      ["email.read", {}],
      ["chat_a.send", { chatId: "1", text: "hi" }],
      ["chat_b.send", { channel: "#general", text: "hi" }]
    ] as const) {
      await run(client.api.studioSkills.invokeSkill({ payload: { name, input } }))
    }
    expect(await run(client.api.federation.directoryStatus())).toMatchObject({ configured: false })
    expect(dialledIn(bareLog).filter((destination) => !onHost.includes(destination))).toEqual([])
  })
})
