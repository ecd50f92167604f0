/**
 * The Connections routes over a real node (spec: "Connections", secrets at rest): the provider
 * registry, a plugin's provider joining and leaving it, and a node without ENCRYPTION_KEY
 * refusing to keep a secret.
 */
import * as Option from "effect/Option"
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { refused, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { adaBot, connectionsNode, rows } from "./connections-support.ts"

const context = connectionsNode()

describe("the provider registry", () => {
  it("lists the built-ins with how each is connected", async () => {
    const providers = await run(context.owner.client.api.connections.providers())
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
  const dir = join(context.node.dataDir, "plugins", "diary")
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
    const installed = await run(
      context.owner.client.api.plugins.installPlugin({ payload: { dir: "diary", granted: [] } })
    )
    const listed = (await run(context.member.client.api.connections.providers())).find(
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
      context.member.client.api.connections.create({
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
    expect((await rows(context)).find((row) => row.id === diary.id)?.secret).toMatch(/^nv2\./)

    await run(context.owner.client.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent(installed.id) } }))
    expect(
      (await run(context.member.client.api.connections.providers())).some((provider) => provider.id === "diary.notes")
    ).toBe(false)
    expect(
      await refused(context.member.client.api.connections.create({ payload: { provider: "diary.notes", config: {} } }))
    ).toMatchObject({ status: 404, body: { error: "unknown_provider" } })
    await run(context.member.client.api.connections.remove({ path: { id: diary.id } }))
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

  it("seals the secret under a key it keeps of its own (owner-only file), never as plain text", async () => {
    const saved = await run(
      someone.client.api.connections.create({ payload: { provider: "chat_a", config: { token: adaBot } } })
    )
    expect(JSON.stringify(saved)).not.toContain(adaBot)
    const keyFile = join(bare.dataDir, "keys", "ENCRYPTION_KEY")
    expect(statSync(keyFile).mode & 0o777).toBe(0o600)
    // The database and its write-ahead log hold the sealed form only.
    for (const file of readdirSync(bare.dataDir).filter((name) => name.startsWith("node.db")))
      expect(readFileSync(join(bare.dataDir, file)).includes(adaBot), file).toBe(false)
  })
})
