/**
 * A plugin that is an MCP server (its manifest's `mcp`): the host asks the node's MCP client (extensions/mcp, bound in
 * host/extension-host.ts) to start it and list its tools as skill contributions, and is told when they change (the
 * server came back or said its tool list changed) or when it is down, so the plugin's skills and status follow.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { ActivationFailed } from "../contract/plugin-errors.ts"
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { PluginManifest } from "../contract/manifest.ts"
import type { CapabilityAdapterFactories } from "./context.ts"
import { contributionsOf } from "./installed-records.ts"
import type { AnyContribution, ContributionsWriterShape } from "./registry.ts"

export interface McpServerPlugin {
  readonly manifest: PluginManifest
  /** The plugin's folder on the host. */
  readonly dir: string
  readonly granted: ReadonlyArray<CapabilityKind>
  readonly adapters: CapabilityAdapterFactories
  /**
   * Present at install only, with the bearer token the owner gave for a remote server (None: none): a server that
   * fails then refuses the install. Absent when the node loads an installed plugin (at boot, or after another
   * process installed it): the token kept at install is used, and a server that fails is started again with backoff.
   */
  readonly install?: { readonly token: Option.Option<Redacted.Redacted<string>> }
}

/** The server's tools as skills again (it came back), or why it is down (it is being restarted). */
export type McpServerChange = Either.Either<ReadonlyArray<AnyContribution>, { readonly message: string }>

export interface McpServerStarted {
  readonly contributions: ReadonlyArray<AnyContribution>
  /** Why the server is down while it is being started again (not at install, where a failure refuses): null when up. */
  readonly failing: string | null
  /** Stops the server and every restart to come. */
  readonly stop: () => void
}

export interface McpServersShape {
  readonly start: (
    plugin: McpServerPlugin,
    changed: (change: McpServerChange) => void
  ) => Effect.Effect<McpServerStarted, ActivationFailed>
  /** Forgets what was kept for the plugin at its install (its token): it was uninstalled, or its install failed. */
  readonly forget: (pluginId: string) => Effect.Effect<void>
}

/**
 * What the host does when a loaded MCP server plugin's server changes (`current`: the change is of the server the host
 * holds, not one it stopped): its skills leave the registry at once; they come back with the server's tools, or the
 * plugin shows `error` with why until then.
 */
export const followServer =
  (
    host: ContributionsWriterShape & { readonly runFork: (effect: Effect.Effect<unknown>) => unknown },
    id: string,
    current: () => boolean
  ) =>
  (change: McpServerChange) => {
    const record = host.loaded.get(id)
    if (record === undefined || !current()) return
    host.writer.removePlugin(id)
    if (Either.isLeft(change)) {
      host.loaded.set(id, { ...record, status: "error", error: change.left.message, contributions: [] })
      return
    }
    const back = { ...record, status: "active" as const, error: null, contributions: contributionsOf(change.right) }
    host.runFork(
      host.writer.add(change.right).pipe(
        Effect.map(() => host.loaded.set(id, back)),
        Effect.catchAll((error) =>
          Effect.sync(() => host.loaded.set(id, { ...record, status: "error", error: error.message }))
        )
      )
    )
  }
