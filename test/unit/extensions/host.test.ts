import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { builtins } from "../../../host/builtins.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import type { CapabilityAdapterFactories, PluginModule } from "../../../kernel/extensions/context.ts"
import type { AuthoringAdapter } from "../../../extensions/studio/authoring-capability.ts"
import type { LlmAdapter } from "../../../kernel/extensions/llm.ts"
import { contributionsLayer } from "../../../kernel/extensions/registry.ts"
import { reservedNamespaces } from "../../../extensions/plugins/contract/reserved-namespaces.ts"
import { ExtensionHost } from "../../../kernel/extensions/host.ts"
import { pluginMigrations } from "../../../kernel/extensions/migrations.ts"
import { Settings } from "../../../kernel/settings.ts"

const hostVersion = "0.1.0"
const builtinIds = [
  "@svc/themes",
  "@svc/files",
  "@svc/docs",
  "@svc/math",
  "@svc/code",
  "@svc/scene3d",
  "@svc/web",
  "@svc/http",
  "@svc/image",
  "@svc/llm",
  "@svc/memory",
  "@svc/desktop",
  "@svc/schedule",
  "@svc/studio",
  "@svc/email",
  "@svc/chat-a",
  "@svc/chat-b"
]

const database = databaseLayer(pluginMigrations, { filename: ":memory:" }).pipe(Layer.provide(Settings.layerWith({})))

/** A host over the given plugin folder; several boots in one test share the one database. */
const boot = (
  pluginDir: string,
  options: { builtins?: ReadonlyArray<PluginModule>; adapters?: CapabilityAdapterFactories } = {}
) =>
  Layer.build(
    ExtensionHost.layer({
      hostVersion,
      builtins: options.builtins ?? builtins,
      adapters: options.adapters ?? {},
      reservedNamespaces
    }).pipe(
      // Each boot has its own registry, as each process has.
      Layer.provide(contributionsLayer),
      Layer.provide(Settings.layerWith({ pluginDir }))
    )
  ).pipe(Effect.map((context) => Context.get(context, ExtensionHost)))

const tempPluginDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(join(tmpdir(), "plugins-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/** A plugin folder; its main records that it ran, so a test can prove what was (not) imported. */
const writePlugin = (root: string, dir: string, manifest: Record<string, unknown>, main = "") => {
  mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, dir, "plugin.json"), JSON.stringify(manifest))
  writeFileSync(join(root, dir, "index.js"), main)
}

const markerMain = (marker: string) =>
  `import { writeFileSync } from "node:fs"\nwriteFileSync(${JSON.stringify(marker)}, "imported")\nthrow new Error("this code must not run")\n`

const themeMain = `
export const activate = (context) => {
  context.contribute("theme", "sepia", {
    colorScheme: "light",
    tokens: { background: "#f4ecd8", surface: "#fbf5e6", text: "#3b2f1e", muted: "#6b5a43",
      accent: "#8a4b12", danger: "#a3261e", border: "#d9c9a8", focusRing: "#8a4b12" }
  })
  context.contribute("integration", "count", { llm: context.adapters.llm !== undefined })
}
`

const sepia = {
  apiVersion: "1.0",
  id: "@ada/sepia",
  version: "1.0.0",
  namespace: "sepia",
  name: "Sepia",
  main: "index.js",
  capabilities: [{ kind: "storage" }],
  extensions: [
    { kind: "theme", id: "sepia", title: "Sepia", uses: [] },
    { kind: "integration", id: "count", uses: ["storage"] }
  ]
}

const rowCount = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<{ n: number }>`SELECT count(*) AS n FROM plugins`
).pipe(Effect.map((rows) => rows[0].n))

describe("ExtensionHost", () => {
  it.scoped("loads the built-ins and lists what each contributes", () =>
    Effect.gen(function* () {
      const host = yield* boot(yield* tempPluginDir)
      const installed = yield* host.installed
      expect(installed.map((plugin) => plugin.id)).toEqual(builtinIds)
      expect(installed.slice(0, 1)).toEqual([
        {
          id: "@svc/themes",
          name: "Themes",
          description: "The node's light and dark themes.",
          version: "1.0.0",
          namespace: "themes",
          source: { kind: "builtin" },
          status: "active",
          error: null,
          capabilities: [],
          granted: [],
          contributions: [
            { kind: "theme", name: "themes.light", title: "Light" },
            { kind: "theme", name: "themes.dark", title: "Dark" }
          ]
        }
      ])
      expect(host.registries.theme.get("themes.dark")?.value.colorScheme).toBe("dark")
      expect(host.registries.theme.get("themes.light")?.value.tokens.focusRing).toMatch(/^#/)
    }).pipe(Effect.provide(database))
  )

  it.scoped("installs a local folder: reads plugin.json, runs activate, registers and persists", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      writePlugin(root, "sepia", sepia, themeMain)
      const host = yield* boot(root, {
        adapters: {
          storage: () => ({ put: "put" }) as unknown as AuthoringAdapter,
          llm: () => ({ chat: "chat" }) as unknown as LlmAdapter
        }
      })
      const record = yield* host.install({ dir: "sepia", granted: ["storage", "llm"] })
      expect(record).toMatchObject({
        id: "@ada/sepia",
        source: { kind: "local", dir: "sepia" },
        status: "active",
        granted: ["storage"],
        contributions: [
          { kind: "theme", name: "sepia.sepia", title: "Sepia" },
          { kind: "integration", name: "sepia.count" }
        ]
      })
      const count = host.registries.integration.get("sepia.count")
      expect(count?.value.llm).toBe(false)
      expect(count?.context.adapters.storage).toEqual({ put: "put" })
      expect(yield* rowCount).toBe(1)
      expect((yield* host.installed).map((plugin) => plugin.id)).toEqual([...builtinIds, "@ada/sepia"])

      const restarted = yield* boot(root, {
        adapters: { storage: () => ({ put: "put" }) as unknown as AuthoringAdapter }
      })
      expect((yield* restarted.installed).find((plugin) => plugin.id === "@ada/sepia")).toMatchObject({
        status: "active",
        granted: ["storage"]
      })
      expect(restarted.registries.theme.get("sepia.sepia")?.value.colorScheme).toBe("light")
    }).pipe(Effect.provide(database))
  )

  it.scoped("refuses missing grants naming the kinds, before importing main, and writes nothing", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      const marker = join(root, "ran")
      writePlugin(
        root,
        "mailer",
        {
          ...sepia,
          id: "@ada/mailer",
          namespace: "mailer",
          capabilities: [{ kind: "network" }, { kind: "world-acting", reason: "sends your mail" }, { kind: "storage" }],
          extensions: []
        },
        markerMain(marker)
      )
      const host = yield* boot(root)

      const available = yield* host.available
      expect(available.plugins).toMatchObject([
        { dir: "mailer", installed: false, error: null, manifest: { id: "@ada/mailer" } }
      ])
      expect(available.capabilityNotes["world-acting"]).toContain("approval")

      const refused = yield* Effect.flip(host.install({ dir: "mailer", granted: ["storage"] }))
      expect(refused).toMatchObject({
        _tag: "MissingGrants",
        error: "missing_grants",
        details: { missing: ["network", "world-acting"] }
      })
      expect(refused.message).toContain("network, world-acting")
      expect(existsSync(marker)).toBe(false)
      expect(yield* rowCount).toBe(0)
      expect((yield* host.installed).map((plugin) => plugin.id)).toEqual(builtinIds)
    }).pipe(Effect.provide(database))
  )

  it.scoped("refuses a reserved namespace and a namespace clash, without running code", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      const marker = join(root, "ran")
      writePlugin(root, "web", { ...sepia, id: "@ada/web", namespace: "web", extensions: [] }, markerMain(marker))
      writePlugin(
        root,
        "themes",
        { ...sepia, id: "@ada/themes", namespace: "themes", extensions: [] },
        markerMain(marker)
      )
      writePlugin(root, "sepia", sepia, themeMain)
      writePlugin(root, "sepia-again", { ...sepia, id: "@bob/sepia" }, markerMain(marker))
      const host = yield* boot(root)

      expect(yield* Effect.flip(host.install({ dir: "web", granted: ["storage"] }))).toMatchObject({
        error: "reserved_namespace"
      })
      expect(yield* Effect.flip(host.install({ dir: "themes", granted: ["storage"] }))).toMatchObject({
        _tag: "NamespaceTaken",
        error: "namespace_taken",
        details: { by: "@svc/themes" }
      })
      yield* host.install({ dir: "sepia", granted: ["storage"] })
      expect(yield* Effect.flip(host.install({ dir: "sepia-again", granted: ["storage"] }))).toMatchObject({
        _tag: "NamespaceTaken",
        error: "namespace_taken",
        details: { by: "@ada/sepia" }
      })
      expect(existsSync(marker)).toBe(false)
      expect(yield* rowCount).toBe(1)
    }).pipe(Effect.provide(database))
  )

  it.scoped("refuses a folder outside the plugin folder and one without a manifest", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      mkdirSync(join(root, "empty"))
      const host = yield* boot(root)
      expect(yield* Effect.flip(host.install({ dir: "../elsewhere", granted: [] }))).toMatchObject({
        error: "outside_plugin_dir"
      })
      expect(yield* Effect.flip(host.install({ dir: ".", granted: [] }))).toMatchObject({ error: "outside_plugin_dir" })
      expect(yield* Effect.flip(host.install({ dir: "empty", granted: [] }))).toMatchObject({
        error: "invalid_manifest",
        message: expect.stringContaining("no readable plugin.json")
      })
    }).pipe(Effect.provide(database))
  )

  it.scoped("leaves nothing behind when activate fails", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      writePlugin(
        root,
        "broken",
        sepia,
        `export const activate = (context) => {\n  context.contribute("theme", "sepia", { colorScheme: "light", tokens: {} })\n}\n`
      )
      const host = yield* boot(root)
      const refused = yield* Effect.flip(host.install({ dir: "broken", granted: ["storage"] }))
      expect(refused).toMatchObject({ error: "activation_failed" })
      expect(refused.message).toContain(`the theme "sepia" has the wrong shape`)
      expect(yield* rowCount).toBe(0)
      expect(host.registries.theme.get("sepia.sepia")).toBeUndefined()
      expect((yield* host.installed).length).toBe(builtinIds.length)
    }).pipe(Effect.provide(database))
  )

  it.scoped("uninstalls: unregisters, deletes the row and the folder; built-ins stay", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      writePlugin(root, "sepia", sepia, themeMain)
      const host = yield* boot(root)
      yield* host.install({ dir: "sepia", granted: ["storage"] })
      expect(yield* host.uninstall("@ada/sepia")).toEqual({ removedDir: true })
      expect(existsSync(join(root, "sepia"))).toBe(false)
      expect(host.registries.theme.get("sepia.sepia")).toBeUndefined()
      expect(yield* rowCount).toBe(0)
      expect(yield* Effect.flip(host.uninstall("@ada/sepia"))).toMatchObject({
        _tag: "PluginNotFound",
        error: "not_found"
      })
      expect(yield* Effect.flip(host.uninstall("@svc/themes"))).toMatchObject({ error: "builtin_plugin" })
      expect(host.registries.theme.get("themes.light")).toBeDefined()
    }).pipe(Effect.provide(database))
  )

  it.scoped("marks market and url sources, and a local plugin whose folder went bad, as errors at boot", () =>
    Effect.gen(function* () {
      const root = yield* tempPluginDir
      const marker = join(root, "ran")
      const sql = yield* SqlClient.SqlClient
      const row = (id: string, namespace: string, source: unknown) =>
        sql`INSERT INTO plugins ${sql.insert({
          id,
          namespace,
          version: "1.0.0",
          source: JSON.stringify(source),
          manifest: JSON.stringify({ ...sepia, id, namespace, extensions: [] }),
          granted: JSON.stringify(["storage"]),
          status: "active",
          error: null,
          installed_at: "2024-01-01T00:00:00.000Z"
        })}`
      yield* row("@m/market", "market", { kind: "market", listingId: "l1", packageName: "@m/market", version: "1.0.0" })
      yield* row("@u/url", "url", { kind: "url", url: "https://example.org/p.tgz", integrity: null })
      yield* row("@l/gone", "gone", { kind: "local", dir: "gone" })
      writePlugin(
        root,
        "greedy",
        {
          ...sepia,
          id: "@l/greedy",
          namespace: "greedy",
          capabilities: [{ kind: "storage" }, { kind: "network" }],
          extensions: []
        },
        markerMain(marker)
      )
      yield* row("@l/greedy", "greedy", { kind: "local", dir: "greedy" })

      const host = yield* boot(root)
      const byId = new Map((yield* host.installed).map((plugin) => [plugin.id, plugin]))
      expect(byId.get("@m/market")).toMatchObject({
        status: "error",
        error: expect.stringContaining("not verified"),
        contributions: []
      })
      expect(byId.get("@u/url")).toMatchObject({ status: "error", error: expect.stringContaining("not verified") })
      expect(byId.get("@l/gone")).toMatchObject({
        status: "error",
        name: "Sepia",
        error: expect.stringContaining("plugin.json")
      })
      expect(byId.get("@l/greedy")).toMatchObject({
        status: "error",
        error: expect.stringContaining("not granted: network")
      })
      expect(existsSync(marker)).toBe(false)
      const statuses = yield* sql<{ id: string; status: string }>`SELECT id, status FROM plugins ORDER BY id`
      expect(statuses.every((stored) => stored.status === "error")).toBe(true)
    }).pipe(Effect.provide(database))
  )

  it.scoped("lists a stored plugin whose manifest no longer decodes, by its id, and keeps what was stored", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const stale = JSON.stringify({ apiVersion: "0.1", id: "@l/old", title: "from an older node" })
      yield* sql`INSERT INTO plugins ${sql.insert({
        id: "@l/old",
        namespace: "old",
        version: "0.1.0",
        source: JSON.stringify({ kind: "local", dir: "old" }),
        manifest: stale,
        granted: JSON.stringify([]),
        status: "active",
        error: null,
        installed_at: "2024-01-01T00:00:00.000Z"
      })}`
      const host = yield* boot(yield* tempPluginDir)
      const old = (yield* host.installed).find((plugin) => plugin.id === "@l/old")
      expect(old).toMatchObject({
        name: "@l/old",
        version: "0.1.0",
        status: "error",
        error: expect.stringContaining("plugin.json")
      })
      const stored = yield* sql<{
        manifest: string
        status: string
      }>`SELECT manifest, status FROM plugins WHERE id = '@l/old'`
      expect(stored).toEqual([{ manifest: stale, status: "error" }])
    }).pipe(Effect.provide(database))
  )

  it.scoped("fails to boot when a built-in is broken", () =>
    Effect.gen(function* () {
      const broken: PluginModule = {
        manifest: { apiVersion: "1.0", id: "@svc/x", version: "1.0.0", namespace: "x", name: "" },
        activate: () => {}
      }
      const result = yield* Effect.either(boot(yield* tempPluginDir, { builtins: [broken] }))
      expect(Either.isLeft(result) && result.left).toMatchObject({ error: "invalid_manifest" })
    }).pipe(Effect.provide(database))
  )
})
