/**
 * The extension host: every feature of the node, built-in or not, arrives through it. At boot it
 * loads the built-ins (so they win their namespaces), then what the owner installed; it installs
 * and uninstalls local plugin folders and answers what is installed and what each contributes.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Runtime from "effect/Runtime"
import { join, resolve } from "node:path"
import {
  BuiltinPlugin,
  type InstallRefusal,
  ManifestChanged,
  PluginNotFound,
  type UninstallRefusal
} from "../contract/plugin-errors.ts"
import { Settings } from "../settings.ts"
import { activatePlugin } from "./activation.ts"
import { loadIsolated, type PluginIsolate } from "./isolate/plugin-isolate.ts"
import { moduleContributions } from "./module-documents.ts"
import { declaredContributions } from "./declared-kinds.ts"
import { isDeclaredKind } from "../contract/plugin-kinds.ts"
import type { AvailablePlugins, InstalledPlugin, InstallPluginRequest, UninstallResult } from "../contract/plugins.ts"
import { capabilityNotes, pluginRiskStatement, type CapabilityKind } from "../contract/capabilities.ts"
import type { CapabilityAdapterFactories, PluginModule } from "./context.ts"
import { checkCompatibility, checkGrants, checkMcpToken, checkPlacement } from "./install-rules.ts"
import type { PluginManifest, PluginSource } from "../contract/manifest.ts"
import { decodeManifest, readManifest } from "./read-manifest.ts"
import { pluginFolder, pluginFolderNames, removeFolder } from "./plugin-folders.ts"
import { recordOf, recordOfUnreadableRow } from "./installed-records.ts"
import { type AnyContribution, ContributionsWriter, type Registries } from "./registry.ts"
import { PluginsRepository, type StoredPlugin } from "./plugins-repository.ts"
import { BridgeStorageRepository } from "./bridge-storage-repository.ts"
import { pluginBundleCache, pluginDataDir } from "./plugin-files.ts"
import { PluginRelay, type PluginChange } from "./plugin-relay.ts"
import { followServer, type McpServerPlugin, type McpServersShape, type McpServerStarted } from "./mcp-servers.ts"
import { activationFailed } from "./activation.ts"
import { spanNamed } from "../spans.ts"

export interface ExtensionHostOptions {
  /** The node's own version, checked against each manifest's minHostVersion. */
  readonly hostVersion: string
  /** The built-in plugin modules, loaded first at every boot. */
  readonly builtins: ReadonlyArray<PluginModule>
  readonly adapters: CapabilityAdapterFactories
  /** The namespaces only built-ins may take, besides the node's own (install-rules.ts `nodeNamespaces`). */
  readonly reservedNamespaces: ReadonlySet<string>
  /** What starts a plugin that is an MCP server; without it, such a plugin fails to activate. */
  readonly mcpServers?: McpServersShape
}

export interface ExtensionHostShape {
  /** What every plugin contributes, by kind; features read their kind from here. */
  readonly registries: Registries
  /** Built-ins first, then installed plugins in install order. */
  readonly installed: Effect.Effect<ReadonlyArray<InstalledPlugin>>
  /** Folders under the plugin folder with their manifests, read without importing any code. */
  readonly available: Effect.Effect<AvailablePlugins>
  readonly install: (request: InstallPluginRequest) => Effect.Effect<InstalledPlugin, InstallRefusal>
  readonly uninstall: (id: string) => Effect.Effect<UninstallResult, UninstallRefusal>
}

const notVerified =
  "Not loaded: market and URL sources are not verified (no integrity check, signature or version pinning)."

const make = (options: ExtensionHostOptions) =>
  Effect.gen(function* () {
    const settings = yield* Settings
    const store = yield* PluginsRepository
    const bridgeStorage = yield* BridgeStorageRepository
    // The registry the readers hold too (registry.ts says why it is apart from the host).
    const { writer, loaded } = yield* ContributionsWriter
    const lock = yield* Effect.makeSemaphore(1)
    const pluginRoot = resolve(settings.pluginDir)
    const relay = yield* Effect.serviceOption(PluginRelay)
    /** Tells the other processes sharing the database, which load or drop the plugin as this one did. */
    const announce = (change: PluginChange) => (Option.isSome(relay) ? relay.value.send(change) : Effect.void)

    // The isolate's watchdog stops a plugin from outside Effect (isolated-vm's callbacks): its row is written from there.
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    /** Each third-party plugin's isolate, by plugin id, while it is loaded. */
    const isolates = new Map<string, PluginIsolate>()

    /** Each MCP server plugin's server, by plugin id, while it is loaded. */
    const servers = new Map<string, McpServerStarted>()
    const forgetServer = (id: string) => options.mcpServers?.forget(id) ?? Effect.void
    const dropIsolate = (id: string) => {
      isolates.get(id)?.dispose()
      isolates.delete(id)
      servers.get(id)?.stop()
      servers.delete(id)
    }
    /**
     * A plugin whose isolate was stopped (a loop, its memory, a deadline) leaves the registries,
     * in error, at once: the call that stopped it answers after this. The row follows.
     */
    const stopPlugin = (id: string, isolate: PluginIsolate | undefined, reason: string) => {
      const record = loaded.get(id)
      if (record === undefined || isolate === undefined || isolates.get(id) !== isolate) return
      isolates.delete(id)
      writer.removePlugin(id)
      const error = `Stopped: ${reason}.`
      loaded.set(id, { ...record, status: "error", error, contributions: [] })
      runFork(
        Effect.zipRight(
          store.setState({ id, version: record.version, manifest: null, status: "error", error }),
          Effect.logWarning(`plugin ${id} stopped: ${reason}`)
        ).pipe(spanNamed("plugins.stop", { attributes: { id } }))
      )
    }

    /** Loads a third-party plugin into an isolate of its own and activates it there; kept only when it activates. */
    const activateLocal = (
      manifest: PluginManifest,
      dir: string,
      granted: ReadonlyArray<CapabilityKind>,
      install?: McpServerPlugin["install"]
    ) =>
      Effect.gen(function* () {
        const modules = [
          ...(yield* moduleContributions(manifest, dir, granted, options.adapters)),
          ...(yield* declaredContributions(manifest, dir, granted, options.adapters))
        ]
        if (manifest.mcp !== null) {
          if (options.mcpServers === undefined)
            return yield* activationFailed(manifest, "this node runs no MCP servers")
          let started: McpServerStarted | undefined
          started = yield* options.mcpServers.start(
            { manifest, dir, granted, adapters: options.adapters, ...(install === undefined ? {} : { install }) },
            followServer({ writer, loaded, runFork }, manifest.id, () => started === servers.get(manifest.id))
          )
          dropIsolate(manifest.id)
          servers.set(manifest.id, started)
          return [...started.contributions, ...modules]
        }
        // A plugin of declarations only (modules, widgets, generators...) has no code for the node to run, so no
        // isolate.
        if (manifest.main === null && manifest.extensions.every((extension) => isDeclaredKind(extension.kind))) {
          const code = yield* activatePlugin({ manifest, activate: () => {}, granted, adapters: options.adapters })
          return [...code, ...modules]
        }
        let loadedIsolate: PluginIsolate | undefined
        const cache = pluginBundleCache(settings.dataDir, manifest.namespace)
        const isolate = yield* loadIsolated(manifest, dir, cache, (reason) =>
          stopPlugin(manifest.id, loadedIsolate, reason)
        )
        loadedIsolate = isolate
        const contributions = yield* activatePlugin({
          manifest,
          activate: isolate.activate,
          granted,
          adapters: options.adapters
        }).pipe(Effect.tapError(() => Effect.sync(isolate.dispose)))
        dropIsolate(manifest.id)
        isolates.set(manifest.id, isolate)
        return [...contributions, ...modules]
      })

    const vetted = (manifest: PluginManifest, source: PluginSource, granted: ReadonlyArray<CapabilityKind>) =>
      checkCompatibility(manifest, options.hostVersion).pipe(
        Effect.zipRight(checkPlacement(manifest, source, loaded.values(), options.reservedNamespaces)),
        Effect.zipRight(checkGrants(manifest, granted))
      )

    const loadBuiltins = Effect.forEach(
      options.builtins,
      (module) =>
        Effect.gen(function* () {
          const manifest = yield* decodeManifest(module.manifest, "a built-in's manifest")
          const source: PluginSource = { kind: "builtin" }
          const granted = yield* vetted(
            manifest,
            source,
            manifest.capabilities.map((capability) => capability.kind)
          )
          const contributions = yield* activatePlugin({
            manifest,
            activate: module.activate,
            granted,
            adapters: options.adapters
          })
          yield* writer.add(contributions)
          loaded.set(manifest.id, recordOf(manifest, source, granted, Either.right(contributions)))
        }),
      { discard: true }
    )

    const reloadLocal = (row: StoredPlugin, dir: string) =>
      Effect.gen(function* () {
        const absolute = resolve(pluginRoot, dir)
        const manifest = yield* readManifest(absolute)
        if (manifest.id !== row.id || manifest.namespace !== row.namespace) {
          return yield* Effect.fail(
            new ManifestChanged({
              message: `plugin.json now names ${manifest.id} in namespace "${manifest.namespace}"; reinstall the plugin.`
            })
          )
        }
        const granted = yield* vetted(manifest, row.source, row.granted)
        const contributions = yield* activateLocal(manifest, absolute, granted)
        yield* writer.add(contributions).pipe(Effect.tapError(() => Effect.sync(() => dropIsolate(manifest.id))))
        return { manifest, contributions }
      })

    /** Loads one stored plugin into this process; one that fails to load is kept, in error, with the reason. */
    const loadRow = (row: StoredPlugin) =>
      Effect.gen(function* () {
        const source = row.source
        const reloaded =
          source.kind === "local"
            ? yield* Effect.either(reloadLocal(row, source.dir))
            : Either.left({ message: notVerified })
        // An MCP server that could not start is kept, and started again: the plugin shows why meanwhile.
        const failing = servers.get(row.id)?.failing
        const outcome = (contributions: ReadonlyArray<AnyContribution>) =>
          typeof failing === "string" ? Either.left({ message: failing }) : Either.right(contributions)
        const record = Either.isRight(reloaded)
          ? recordOf(reloaded.right.manifest, source, row.granted, outcome(reloaded.right.contributions))
          : Option.isSome(row.manifest)
            ? recordOf(row.manifest.value, source, row.granted, Either.left(reloaded.left))
            : recordOfUnreadableRow(row, reloaded.left.message)
        loaded.set(row.id, record)
        if (record.error !== null) yield* Effect.logWarning(`plugin ${row.id} not loaded: ${record.error}`)
        return { record, manifest: Either.isRight(reloaded) ? reloaded.right.manifest : null }
      })

    /** A stored plugin that fails to load is kept, in error, with the reason: the owner decides what to do. */
    const loadStored = Effect.gen(function* () {
      for (const row of yield* store.list) {
        const { record, manifest } = yield* loadRow(row)
        yield* store.setState({
          id: row.id,
          version: record.version,
          manifest,
          status: record.status,
          error: record.error
        })
      }
    })

    const install = (request: InstallPluginRequest) =>
      lock
        .withPermits(1)(
          Effect.gen(function* () {
            const folder = yield* pluginFolder(pluginRoot, request.dir)
            const manifest = yield* readManifest(folder.absolute)
            const source: PluginSource = { kind: "local", dir: folder.dir }
            const granted = yield* vetted(manifest, source, request.granted)
            yield* checkMcpToken(manifest, request.mcpToken)
            // Activation runs before anything is written, so a plugin that fails to activate leaves no trace.
            const contributions = yield* activateLocal(manifest, folder.absolute, granted, {
              token: Option.fromNullable(request.mcpToken)
            })
            const installedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
            yield* store.insert({
              id: manifest.id,
              namespace: manifest.namespace,
              version: manifest.version,
              source,
              manifest,
              granted,
              status: "active",
              error: null,
              installedAt
            })
            yield* writer.add(contributions).pipe(
              Effect.tapError(() =>
                Effect.zipRight(
                  store.remove(manifest.id),
                  Effect.sync(() => dropIsolate(manifest.id))
                ).pipe(Effect.zipRight(forgetServer(manifest.id)))
              )
            )
            const record = recordOf(manifest, source, granted, Either.right(contributions))
            loaded.set(manifest.id, record)
            yield* announce({ change: "installed", id: manifest.id })
            return record
          })
        )
        .pipe(spanNamed("plugins.install", { attributes: { dir: request.dir } }))

    const uninstall = (id: string) =>
      lock
        .withPermits(1)(
          Effect.gen(function* () {
            const record = loaded.get(id)
            if (record === undefined) {
              return yield* Effect.fail(
                new PluginNotFound({ message: `No plugin ${id} is installed.`, details: { id } })
              )
            }
            if (record.source.kind === "builtin") {
              return yield* Effect.fail(
                new BuiltinPlugin({
                  message: `${id} is built into the node and cannot be uninstalled.`,
                  details: { id }
                })
              )
            }
            writer.removePlugin(id)
            dropIsolate(id)
            yield* store.remove(id)
            yield* forgetServer(id)
            loaded.delete(id)
            // Its data folder and its stored keys go with the grant that let it write there.
            yield* bridgeStorage.removeScope(id)
            yield* removeFolder(pluginDataDir(settings, record.namespace))
            yield* removeFolder(pluginBundleCache(settings.dataDir, record.namespace))
            const removedDir =
              record.source.kind === "local" ? yield* removeFolder(resolve(pluginRoot, record.source.dir)) : true
            yield* announce({ change: "removed", id })
            return { removedDir }
          })
        )
        .pipe(spanNamed("plugins.uninstall", { attributes: { id } }))

    const available = Effect.withSpan(
      Effect.gen(function* () {
        const folders = yield* pluginFolderNames(pluginRoot)
        const installedDirs = new Set(
          [...loaded.values()].flatMap((record) => (record.source.kind === "local" ? [record.source.dir] : []))
        )
        const plugins = yield* Effect.forEach(folders.sort(), (dir) =>
          Effect.either(readManifest(join(pluginRoot, dir))).pipe(
            Effect.map((manifest) => ({
              dir,
              manifest: Either.getOrNull(manifest),
              error: Either.isLeft(manifest) ? manifest.left.message : null,
              installed: installedDirs.has(dir)
            }))
          )
        )
        return { risk: pluginRiskStatement, capabilityNotes, plugins }
      }),
      "plugins.available"
    )

    yield* Effect.addFinalizer(() => Effect.sync(() => [...isolates.keys(), ...servers.keys()].forEach(dropIsolate)))
    yield* loadBuiltins
    yield* loadStored

    /**
     * Another process installed or removed a plugin (null: this one was deaf for a while, so every
     * installed plugin): this one drops what it had of it and loads it again from its row, if the
     * row is there. Its rows, folders and data are the installing process's to write, not touched here.
     */
    const follow = (change: PluginChange | null) =>
      lock
        .withPermits(1)(
          Effect.gen(function* () {
            const rows = yield* store.list
            const ids = change !== null ? [change.id] : [...new Set([...loaded.keys(), ...rows.map((row) => row.id)])]
            for (const id of ids) {
              if (loaded.get(id)?.source.kind === "builtin") continue
              writer.removePlugin(id)
              dropIsolate(id)
              loaded.delete(id)
              const row = rows.find((candidate) => candidate.id === id)
              if (row !== undefined) yield* loadRow(row)
            }
          })
        )
        .pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("A plugin changed by another process could not be followed", cause)
          ),
          spanNamed("plugins.follow")
        )
    if (Option.isSome(relay)) {
      const heard = yield* relay.value.heard
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(heard), follow)))
    }

    return {
      registries: writer.registries,
      installed: Effect.sync(() => [...loaded.values()]),
      available,
      install,
      uninstall
    } satisfies ExtensionHostShape
  })

export class ExtensionHost extends Context.Tag("kernel/ExtensionHost")<ExtensionHost, ExtensionHostShape>() {
  /**
   * Boots the host: a built-in that fails to load fails the layer, since it is the node's own code.
   * It writes the node's one `contributionsLayer` (registry.ts), which the caller provides.
   */
  static readonly layer = (options: ExtensionHostOptions) =>
    Layer.scoped(ExtensionHost, make(options)).pipe(
      Layer.provide(Layer.mergeAll(PluginsRepository.Default, BridgeStorageRepository.Default))
    )
}
