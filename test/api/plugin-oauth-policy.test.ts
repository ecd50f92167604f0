/**
 * A plugin manifest's token endpoint is held to the node's address policy exactly as its
 * `auth.fetch` is (WEB_ALLOW_PRIVATE off: loopback and private addresses refused): a manifest
 * naming a loopback token URL gets no code exchange sent there, nothing is stored, and the being
 * is told why on the consent page. The refresh takes the same outbound (test/unit/host/token-endpoint.test.ts).
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { type Client, registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { navigate } from "../support/navigate.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const provider = "near.feed"

let google: FakeGoogle
let node: TestNode
let member: Registered

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
  writePluginFolder(join(node.dataDir, "plugins"), "near", {
    extensions: [{ kind: "integration", id: "feed", title: "Near feed", uses: [] }]
  }, `export const activate = (context) => context.contribute("integration", "feed", {
  auth: { kind: "oauth2", authorizeUrl: ${JSON.stringify(`${google.url}/o/oauth2/v2/auth`)}, tokenUrl: ${JSON.stringify(`${google.url}/token`)}, scopes: ["profile"] },
  syncable: true,
  sync: async (request, call) => ({ items: [{ id: "one", text: String((await call.auth.fetch(${JSON.stringify(`${google.url}/gmail/v1/users/me/profile`)})).status) }] })
})
`)
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
