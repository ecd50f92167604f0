/**
 * A plugin that is an MCP server (its manifest's `mcp`): the host asks the node's MCP client (extensions/mcp, bound in
 * host/extension-host.ts) to start it and list its tools as skill contributions, and is told when they change (the
 * server died and came back with other tools) or when it is down, so the plugin's skills and status follow.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
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
}

/** The server's tools as skills again (it came back), or why it is down (it is being restarted). */
export type McpServerChange = Either.Either<ReadonlyArray<AnyContribution>, { readonly message: string }>

export interface McpServerStarted {
  readonly contributions: ReadonlyArray<AnyContribution>
  /** Stops the server and every restart to come. */
  readonly stop: () => void
}

export interface McpServersShape {
  readonly start: (
    plugin: McpServerPlugin,
    changed: (change: McpServerChange) => void
  ) => Effect.Effect<McpServerStarted, ActivationFailed>
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
