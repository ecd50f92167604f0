/**
 * A plugin manifest's token endpoint is held to the node's address policy exactly as its
 * `auth.fetch` is (WEB_ALLOW_PRIVATE off: loopback and private addresses refused): a manifest
 * naming a loopback token URL gets no code exchange sent there, nothing is stored, and the being
 * is told why on the consent page; a connection made while the node allowed private addresses is
 * not renewed there once it no longer does (the node restarted on the same data), and its sync
 * says why. test/unit/host/token-endpoint.test.ts holds the byte bound.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { LiveTab } from "../support/live.ts"
import {
  Client,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { navigate } from "../support/navigate.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const provider = "near.feed"

let google: FakeGoogle
let node: TestNode
let member: Registered

const writeNearPlugin = (pluginDir: string) =>
  writePluginFolder(
    pluginDir,
    "near",
    {
      extensions: [{ kind: "integration", id: "feed", title: "Near feed", uses: [] }]
    },
    `export const activate = (context) => context.contribute("integration", "feed", {
  auth: { kind: "oauth2", authorizeUrl: ${JSON.stringify(`${google.url}/o/oauth2/v2/auth`)}, tokenUrl: ${JSON.stringify(`${google.url}/token`)}, scopes: ["profile"] },
  syncable: true,
  sync: async (request, call) => ({ items: [{ id: "one", text: String((await call.auth.fetch(${JSON.stringify(`${google.url}/gmail/v1/users/me/profile`)})).status) }] })
})
`
  )

beforeAll(async () => {
  google = await startGoogle()
  process.env.OAUTH_NEAR_FEED_CLIENT_ID = clientId
  process.env.OAUTH_NEAR_FEED_CLIENT_SECRET = clientSecret
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    webAllowPrivate: false,
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  }))
  const owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writeNearPlugin(join(node.dataDir, "plugins"))
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "near", granted: [] } }))
})
afterAll(async () => {
  await node?.close()
  await google?.close()
  delete process.env.OAUTH_NEAR_FEED_CLIENT_ID
  delete process.env.OAUTH_NEAR_FEED_CLIENT_SECRET
})

const refusal = /127\.0\.0\.1 is on a private or local address \(127\.0\.0\.1\); this node does not fetch from those/

describe("a plugin's token endpoint under the node's address policy", () => {
  it("refuses the code exchange with a loopback token URL, storing nothing and saying why", async () => {
    const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
    expect(start.status, start.text).toBe(302)
    // The consent screen is the browser's to reach; only the node's own calls follow the policy.
    const screen = await navigate(member.client, start.location!)
    expect(screen.status).toBe(302)
    const calls = google.tokenCalls.length
    const callback = await navigate(member.client, screen.location!)
    expect(callback.status).toBe(409)
    expect(callback.text).toContain("oauth_refused")
    expect(callback.text).toMatch(refusal)
    expect(google.tokenCalls.length).toBe(calls)
    expect((await run(member.client.api.connections.list())).filter((c) => c.provider === provider)).toEqual([])
  })
})

describe("a plugin's token refresh under the node's address policy", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "node-policy-"))
  const settings = (webAllowPrivate: boolean) => ({
    dataDir,
    pluginDir: join(dataDir, "plugins"),
    webAllowPrivate,
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("refuses the refresh once the policy refuses the token URL: the sync fails saying why, nothing is sent", async () => {
    // Connected while the node allowed private addresses, with tokens that lapse within the minute of margin.
    const before = await startNode(settings(true))
    const first = await registerOwner(before)
    writeNearPlugin(join(dataDir, "plugins"))
    await run(first.client.api.plugins.installPlugin({ payload: { dir: "near", granted: [] } }))
    google.state.expiresIn = 30
    const start = await navigate(first.client, `${before.url}/api/connections/${provider}/auth`)
    const screen = await navigate(first.client, start.location!)
    expect(await navigate(first.client, screen.location!)).toMatchObject({
      status: 302,
      location: `/twin?connected=${provider}`
    })
    google.state.expiresIn = 3600
    await before.close()

    const after = await startNode(settings(false))
    try {
      const owner = new Client(after.url)
      owner.copyCookiesFrom(first.client)
      const calls = { token: google.tokenCalls.length, api: google.apiCalls.length }
      const tab = await LiveTab.open(after, owner)
      expect(await run(owner.api.twin.sync({ path: { provider }, urlParams: {} }))).toEqual({ started: true })
      const frames = await tab.upTo(
        (frame) => frame.type === "twin.activity" && /^(Synced|Could not sync)/.test(frame.summary)
      )
      tab.close()
      const last = frames.at(-1)
      expect(last?.type === "twin.activity" ? last.summary : "").toMatch(refusal)
      expect(google.tokenCalls.length).toBe(calls.token)
      expect(google.apiCalls.length).toBe(calls.api)
      const shown = (await run(owner.api.twin.status())).providers.find((p) => p.provider === provider)
      expect(shown?.sync.status).toBe("error")
      expect(shown?.hint).toMatch(
        /could not be renewed: could not reach near\.feed's token endpoint at 127\.0\.0\.1:\d+: 127\.0\.0\.1 is on a private or local address/
      )
      for (const secret of [...google.state.liveAccess, ...google.state.refreshTokens, clientSecret])
        expect(JSON.stringify(shown)).not.toContain(secret)
    } finally {
      await after.close()
    }
  })
})
