/**
 * A third-party plugin's oauth2 provider over a real node and a loopback OAuth server
 * (test/support/google.ts: its consent screen, token endpoint and a bearer-checked API): the node
 * runs the consent with state and PKCE S256, seals the tokens, and the plugin's sync (in its
 * isolate) reaches the API only through `context.auth.fetch`, which adds the bearer token the
 * plugin never sees; the token is renewed when it expires and when the API answers 401; a wrong
 * or replayed state connects nothing; disconnecting drops the tokens.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import {
  type Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { navigate } from "../support/navigate.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const provider = "cloud.feed"

let google: FakeGoogle
let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  google = await startGoogle()
  process.env.OAUTH_CLOUD_FEED_CLIENT_ID = clientId
  process.env.OAUTH_CLOUD_FEED_CLIENT_SECRET = clientSecret
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    webAllowPrivate: true,
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  // The sync answers what it was handed and what the API said, so the test sees the isolate's input.
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "cloud",
    {
      extensions: [{ kind: "integration", id: "feed", title: "Cloud feed", uses: [] }]
    },
    `let pass = 0
export const activate = (context) => context.contribute("integration", "feed", {
  auth: { kind: "oauth2", authorizeUrl: ${JSON.stringify(`${google.url}/o/oauth2/v2/auth`)}, tokenUrl: ${JSON.stringify(`${google.url}/token`)}, scopes: ["profile"] },
  syncable: true,
  sync: async (request, call) => {
    pass += 1
    const answer = await call.auth.fetch(${JSON.stringify(`${google.url}/gmail/v1/users/me/profile`)})
    const stray = await call.auth.fetch("http://127.0.0.2:9/steal").then(() => "sent", (error) => String(error.message ?? error))
    return { items: [{ id: "pass-" + pass, text: JSON.stringify({ request, keys: Object.keys(call), adapters: Object.keys(call.adapters), status: answer.status, body: answer.body, stray }) }] }
  }
})
`
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "cloud", granted: [] } }))
})
afterAll(async () => {
  await node?.close()
  await google?.close()
})

const consent = async (client: Client) => {
  const start = await navigate(client, `${node.url}/api/connections/${provider}/auth`)
  expect(start.status, start.text).toBe(302)
  const screen = await navigate(client, start.location!)
  expect(screen.status).toBe(302)
  return { start, screen, callback: await navigate(client, screen.location!) }
}

const isSynced = (frame: LiveFrame) => frame.type === "twin.activity" && /^(Synced|Could not sync)/.test(frame.summary)

/** One sync; answers what the plugin saw (its memory's content) or the failure's summary. */
const sync = async (who: Registered) => {
  const tab = await LiveTab.open(node, who.client)
  expect(await run(who.client.api.twin.sync({ path: { provider }, urlParams: {} }))).toEqual({ started: true })
  const frames = await tab.upTo(isSynced)
  tab.close()
  const seen = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory.content] : []))
  return { seen: seen.length === 0 ? null : (JSON.parse(seen[0]!) as Record<string, unknown>), last: frames.at(-1) }
}

const tokens = () => [...google.state.liveAccess, ...google.state.refreshTokens, clientSecret]

describe("a plugin provider connected through OAuth 2.0", () => {
  it("lists the node's consent route as its start, and sends the browser to the manifest's consent screen with state and PKCE S256", async () => {
    const listed = (await run(member.client.api.connections.providers())).find((p) => p.id === provider)
    expect(listed?.auth).toMatchObject({
      kind: "oauth2",
      startPath: `/api/connections/${provider}/auth`,
      scopes: ["profile"]
    })
    const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
    const url = new URL(start.location!)
    expect(`${url.origin}${url.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`)
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: clientId,
      redirect_uri: `${node.url}/api/connections/${provider}/callback`,
      scope: "profile",
      code_challenge_method: "S256",
      response_type: "code"
    })
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{43}$/)
  })

  it("refuses a wrong or a replayed state, connecting nothing", async () => {
    const wrong = await navigate(
      member.client,
      `${node.url}/api/connections/${provider}/callback?code=x&state=not-ours`
    )
    expect(wrong.status).toBe(400)
    expect(wrong.text).toContain("invalid_state")
    const { screen, callback } = await consent(member.client)
    expect(callback).toMatchObject({ status: 302, location: `/twin?connected=${provider}` })
    const replayed = await navigate(member.client, screen.location!)
    expect(replayed.status).toBe(400)
    expect(replayed.text).toContain("invalid_state")
    expect((await run(member.client.api.connections.list())).filter((c) => c.provider === provider)).toHaveLength(1)
    expect(await refused(owner.client.api.twin.sync({ path: { provider }, urlParams: {} }))).toMatchObject({
      status: 409,
      body: { error: "not_connected" }
    })
  })

  it("syncs through auth.fetch with the bearer token, which the plugin never sees, and seals the tokens at rest", async () => {
    const connections = await run(member.client.api.connections.list())
    const connection = connections.find((c) => c.provider === provider)!
    expect(connection.status).toBe("connected")
    const calls = google.apiCalls.length
    const { seen } = await sync(member)
    expect(seen).toMatchObject({
      status: 200,
      body: expect.stringContaining("ada@gmail.example"),
      keys: ["beingId", "adapters", "auth"],
      adapters: ["auth"]
    })
    // A host the manifest did not declare is refused before anything is sent.
    expect(seen?.stray).toContain("127.0.0.2:9 is not a host cloud.feed declared")
    expect(google.apiCalls.slice(calls)).toEqual([
      { method: "GET", path: "/gmail/v1/users/me/profile", authorized: true }
    ])
    const shown = JSON.stringify([seen, connections, await run(member.client.api.twin.status())])
    for (const secret of tokens()) expect(shown).not.toContain(secret)
  })

  it("renews the token when the API answers 401, and when it has expired", async () => {
    google.revokeAccess()
    const before = google.tokenCalls.length
    const { seen } = await sync(member)
    expect(seen).toMatchObject({ status: 200 })
    expect(google.tokenCalls.slice(before).map((call) => call.grant)).toEqual(["refresh_token"])
    expect(google.apiCalls.slice(-2).map((call) => call.authorized)).toEqual([false, true])

    // Tokens that last less than the minute of margin are renewed before the call.
    google.state.expiresIn = 30
    google.revokeAccess()
    await sync(member)
    const afterExpired = google.tokenCalls.length
    const { seen: again } = await sync(member)
    expect(again).toMatchObject({ status: 200 })
    expect(google.tokenCalls.slice(afterExpired).map((call) => call.grant)).toEqual(["refresh_token"])
    expect(google.apiCalls.at(-1)?.authorized).toBe(true)
    google.state.expiresIn = 3600
  })

  it("drops the tokens when the being disconnects: sync is refused and nothing reaches the API", async () => {
    const connection = (await run(member.client.api.connections.list())).find((c) => c.provider === provider)!
    await run(member.client.api.connections.remove({ path: { id: connection.id } }))
    const calls = google.apiCalls.length
    expect(await refused(member.client.api.twin.sync({ path: { provider }, urlParams: {} }))).toMatchObject({
      status: 409,
      body: { error: "not_connected" }
    })
    expect(google.apiCalls.length).toBe(calls)
  })

  it("says the owner must set the client when the node has none", async () => {
    delete process.env.OAUTH_CLOUD_FEED_CLIENT_ID
    const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
    process.env.OAUTH_CLOUD_FEED_CLIENT_ID = clientId
    expect(start.status).toBe(409)
    expect(start.text).toContain("oauth_not_configured")
    expect(start.text).toContain("OAUTH_CLOUD_FEED_CLIENT_ID")
  })
})
