/**
 * The OAuth clients the owner sets in Settings for plugin providers that connect through OAuth 2.0
 * (GET, PUT and DELETE /api/twin/oauth-clients): owner only, only for such a provider, bounded
 * printable values; the secret is sealed and never answered nor logged; a connect flow against
 * the loopback OAuth server runs on the Settings client; the environment's client wins over it.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { keepConsoleLines } from "../support/console-lines.ts"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
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
import { navigate as navigation } from "../support/navigate.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const provider = "cloud.notes"
const envNames = { id: "OAUTH_CLOUD_NOTES_CLIENT_ID", secret: "OAUTH_CLOUD_NOTES_CLIENT_SECRET" }

let google: FakeGoogle
let node: TestNode
let owner: Registered
let member: Registered
let logged: Array<string> = []
const answers: Array<unknown> = []

const kept = async <A>(answer: Promise<A>) => {
  const value = await answer
  answers.push(value)
  return value
}

beforeAll(async () => {
  logged = keepConsoleLines()
  delete process.env[envNames.id]
  delete process.env[envNames.secret]
  google = await startGoogle()
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    webAllowPrivate: true,
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "cloud",
    {
      extensions: [{ kind: "integration", id: "notes", title: "Cloud notes", uses: [] }]
    },
    `export const activate = (context) => context.contribute("integration", "notes", {
  auth: { kind: "oauth2", authorizeUrl: ${JSON.stringify(`${google.url}/o/oauth2/v2/auth`)}, tokenUrl: ${JSON.stringify(`${google.url}/token`)}, scopes: ["notes"] }
})
`
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "cloud", granted: [] } }))
})
afterAll(async () => {
  vi.restoreAllMocks()
  await node?.close()
  await google?.close()
})

const navigate = async (client: Client, url: string) => kept(navigation(client, url))

const none = { provider, clientId: null, secretSet: false, source: "none" }
const listed = () => kept(run(owner.client.api.oauthClients.list()))
const clientConfigured = async (who: Registered) => {
  const found = (await kept(run(who.client.api.connections.providers()))).find((p) => p.id === provider)
  return found?.auth.kind === "oauth2" ? found.auth.clientConfigured : "not oauth2"
}

describe("OAuth clients set in Settings", () => {
  it("lists each oauth2 plugin provider for the owner, none configured, and Connect says what is missing", async () => {
    expect(await listed()).toEqual([none])
    expect(await clientConfigured(member)).toBe(false)
    const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
    expect(start.status).toBe(409)
    expect(start.text).toContain("oauth_not_configured")
    expect(start.text).toContain("Settings → Connections → OAuth clients")
  })

  it("refuses a member (403), an unknown or non-oauth provider (404) and a bad body (400), changing nothing", async () => {
    const good = { clientId, clientSecret }
    expect(await refused(member.client.api.oauthClients.list())).toMatchObject({
      status: 403,
      body: { error: "forbidden" }
    })
    expect(await refused(member.client.api.oauthClients.set({ path: { provider }, payload: good }))).toMatchObject({
      status: 403,
      body: { error: "forbidden" }
    })
    expect(await refused(member.client.api.oauthClients.remove({ path: { provider } }))).toMatchObject({
      status: 403,
      body: { error: "forbidden" }
    })
    for (const other of ["mail_a", "files", "cloud.other"]) {
      expect(
        await refused(owner.client.api.oauthClients.set({ path: { provider: other }, payload: good }))
      ).toMatchObject({ status: 404, body: { error: "unknown_provider" } })
    }
    for (const payload of [
      { clientId: "", clientSecret },
      { clientId: "has space", clientSecret },
      { clientId, clientSecret: "x".repeat(513) },
      { clientId: "x".repeat(257), clientSecret },
      { clientId, clientSecret: "line\nbreak" }
    ]) {
      // Sent raw: the typed client refuses such a body itself before sending it.
      expect(await owner.client.raw("PUT", `/api/twin/oauth-clients/${provider}`, payload)).toMatchObject({
        status: 400,
        body: { error: "invalid_request" }
      })
    }
    expect(await owner.client.raw("PUT", `/api/twin/oauth-clients/${provider}`, { clientId })).toMatchObject({
      status: 400,
      body: { error: "invalid_request" }
    })
    const huge = await owner.client.raw("PUT", `/api/twin/oauth-clients/${provider}`, {
      clientId,
      clientSecret,
      padding: "x".repeat(4096)
    })
    expect(huge.status).toBe(413)
    expect(await owner.client.raw("PUT", "/api/twin/oauth-clients/Not!A!Provider", good)).toMatchObject({
      status: 400,
      body: { error: "invalid_request" }
    })
    expect(await listed()).toEqual([none])
    expect(await clientConfigured(owner)).toBe(false)
  })

  it("keeps the owner's client sealed, answering only that a secret is set, and connects a being with it", async () => {
    const set = await kept(
      run(owner.client.api.oauthClients.set({ path: { provider }, payload: { clientId, clientSecret } }))
    )
    expect(set).toEqual({ provider, clientId, secretSet: true, source: "settings" })
    expect(await listed()).toEqual([set])
    expect(await clientConfigured(member)).toBe(true)

    const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
    expect(start.status, start.text).toBe(302)
    expect(new URL(start.location!).searchParams.get("client_id")).toBe(clientId)
    const screen = await navigate(member.client, start.location!)
    const before = google.tokenCalls.length
    const callback = await navigate(member.client, screen.location!)
    expect(callback).toMatchObject({ status: 302, location: `/twin?connected=${provider}` })
    // The fake token endpoint grants only for the right secret: the sealed one was opened and sent.
    expect(
      google.tokenCalls.slice(before).map((call) => [call.grant, call.form.client_secret === clientSecret])
    ).toEqual([["authorization_code", true]])
    expect((await kept(run(member.client.api.connections.list()))).map((c) => [c.provider, c.status])).toEqual([
      [provider, "connected"]
    ])
  })

  it("lets the environment's client win, and says so", async () => {
    process.env[envNames.id] = "env-client.apps.example"
    process.env[envNames.secret] = "env-secret"
    try {
      expect(await listed()).toEqual([
        { provider, clientId: "env-client.apps.example", secretSet: true, source: "environment" }
      ])
      const start = await navigate(member.client, `${node.url}/api/connections/${provider}/auth`)
      expect(new URL(start.location!).searchParams.get("client_id")).toBe("env-client.apps.example")
    } finally {
      delete process.env[envNames.id]
      delete process.env[envNames.secret]
    }
    expect((await listed())[0]?.source).toBe("settings")
  })

  it("removes the Settings client: the provider is unconfigured again", async () => {
    expect(await kept(run(owner.client.api.oauthClients.remove({ path: { provider } })))).toEqual(none)
    expect(await listed()).toEqual([none])
    expect(await clientConfigured(member)).toBe(false)
  })

  it("never puts the client secret in an answer or a log line", () => {
    expect(logged.some((line) => line.includes(`The OAuth client for ${provider} was set in Settings`))).toBe(true)
    const text = JSON.stringify(answers) + logged.join("\n")
    expect(text).not.toContain(clientSecret)
  })
})
