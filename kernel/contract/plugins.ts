/**
 * The plain, serialisable shapes the extension host answers with, for the HTTP contract to
 * reuse as request and success schemas of the plugin routes.
 */
import * as Schema from "effect/Schema"
import { FileTypes } from "./plugin-kinds.ts"
import { CapabilityKind } from "./capabilities.ts"
import { ExtensionKind, PluginCapability, PluginManifest, PluginSource } from "./manifest.ts"

export const PluginStatus = Schema.Literal("active", "error")
export type PluginStatus = typeof PluginStatus.Type

export const InstalledContribution = Schema.Struct({
  kind: ExtensionKind,
  /** Full name, `<namespace>.<extensionId>`. */
  name: Schema.String,
  title: Schema.optional(Schema.String),
  /** A module's rail icon (SVG path data), when it gives one. */
  icon: Schema.optional(Schema.String),
  /** What a viewer or editor opens: the web app offers "Open with <title>" on such a file. */
  fileTypes: Schema.optional(FileTypes),
  /** A skill that acts on the world: each call waits for the owner's approval (an MCP tool unless it is read-only). */
  worldActing: Schema.optional(Schema.Boolean)
})
export type InstalledContribution = typeof InstalledContribution.Type

export const InstalledPlugin = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  description: Schema.String,
  version: Schema.String,
  namespace: Schema.String,
  source: PluginSource,
  status: PluginStatus,
  /** Why the plugin is not active; null when it is. */
  error: Schema.NullOr(Schema.String),
  capabilities: Schema.Array(PluginCapability),
  granted: Schema.Array(CapabilityKind),
  contributions: Schema.Array(InstalledContribution)
})
export type InstalledPlugin = typeof InstalledPlugin.Type

export const AvailablePlugin = Schema.Struct({
  /** The folder's name under the plugin folder: what an install names as `dir`. */
  dir: Schema.String,
  /** Null when the folder holds no valid manifest; `error` says why. */
  manifest: Schema.NullOr(PluginManifest),
  error: Schema.NullOr(Schema.String),
  installed: Schema.Boolean
})
export type AvailablePlugin = typeof AvailablePlugin.Type

export const AvailablePlugins = Schema.Struct({
  risk: Schema.String,
  capabilityNotes: Schema.Record({ key: CapabilityKind, value: Schema.String }),
  plugins: Schema.Array(AvailablePlugin)
})
export type AvailablePlugins = typeof AvailablePlugins.Type

export const InstallPluginRequest = Schema.Struct({
  dir: Schema.String,
  granted: Schema.Array(CapabilityKind),
  /**
   * For a plugin that is a remote MCP server (`mcp.url`): the bearer token the node sends it, sealed where it is
   * kept and never answered back. Refused for any other plugin.
   */
  mcpToken: Schema.optional(
    Schema.Redacted(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4096), Schema.pattern(/^[\x21-\x7e]+$/)))
  )
})
export type InstallPluginRequest = typeof InstallPluginRequest.Type

export const UninstallResult = Schema.Struct({
  /** False when the plugin's folder survived every attempt to delete it. */
  removedDir: Schema.Boolean
})
export type UninstallResult = typeof UninstallResult.Type
