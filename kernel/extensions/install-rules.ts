/**
 * The rules an install must pass beyond a well-formed manifest, checked before any plugin code
 * is resolved. Each refusal has its own code (listed in docs/plugins.md).
 */
import * as Effect from "effect/Effect"
import gte from "semver/functions/gte.js"
import satisfies from "semver/functions/satisfies.js"
import validVersion from "semver/functions/valid.js"
import {
  HostTooOld,
  MissingGrants,
  NamespaceTaken,
  PluginInstalled,
  ReservedNamespace,
  UnexpectedMcpToken,
  UnsupportedApiVersion
} from "../contract/plugin-errors.ts"
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { PluginManifest, PluginSource } from "../contract/manifest.ts"

/** The plugin API this host implements. A plugin built against the same major and an equal or older minor loads. */
export const pluginApiVersion = "1.0"

/**
 * The names the node keeps for itself, which no plugin but a built-in may take. The host reserves
 * besides them each built-in's own namespace and whatever names the node hands it.
 */
export const nodeNamespaces: ReadonlySet<string> = new Set(["system", "core", "admin", "host", "plugin"])

const parseApiVersion = (version: string) => version.split(".").map(Number) as [number, number]

export const isApiVersionSupported = (apiVersion: string, hostApiVersion: string = pluginApiVersion) => {
  const [major, minor] = parseApiVersion(apiVersion)
  const [hostMajor, hostMinor] = parseApiVersion(hostApiVersion)
  return major === hostMajor && minor <= hostMinor
}

export const satisfiesHostVersion = (requirement: string | null, hostVersion: string) =>
  requirement === null ||
  (validVersion(requirement) !== null
    ? gte(hostVersion, requirement)
    : satisfies(hostVersion, requirement, { includePrerelease: true }))

export const checkCompatibility = (
  manifest: PluginManifest,
  hostVersion: string
): Effect.Effect<void, UnsupportedApiVersion | HostTooOld> => {
  if (!isApiVersionSupported(manifest.apiVersion)) {
    return Effect.fail(
      new UnsupportedApiVersion({
        message: `${manifest.id} is built for plugin API ${manifest.apiVersion}; this node speaks ${pluginApiVersion} (same major, minor up to ${pluginApiVersion}).`,
        details: { apiVersion: manifest.apiVersion, hostApiVersion: pluginApiVersion }
      })
    )
  }
  if (!satisfiesHostVersion(manifest.minHostVersion, hostVersion)) {
    return Effect.fail(
      new HostTooOld({
        message: `${manifest.id} needs node version ${manifest.minHostVersion}; this node is ${hostVersion}.`,
        details: { minHostVersion: manifest.minHostVersion, hostVersion }
      })
    )
  }
  return Effect.void
}

export interface InstalledIdentity {
  readonly id: string
  readonly namespace: string
}

export const checkPlacement = (
  manifest: PluginManifest,
  source: PluginSource,
  installed: Iterable<InstalledIdentity>,
  reserved: ReadonlySet<string>
): Effect.Effect<void, ReservedNamespace | PluginInstalled | NamespaceTaken> => {
  if (source.kind !== "builtin" && (reserved.has(manifest.namespace) || nodeNamespaces.has(manifest.namespace))) {
    return Effect.fail(
      new ReservedNamespace({
        message: `The namespace "${manifest.namespace}" is reserved for the node's built-ins.`,
        details: { namespace: manifest.namespace }
      })
    )
  }
  for (const other of installed) {
    if (other.id === manifest.id) {
      return Effect.fail(
        new PluginInstalled({
          message: `${manifest.id} is already installed; uninstall it first.`,
          details: { id: manifest.id }
        })
      )
    }
    if (other.namespace === manifest.namespace) {
      return Effect.fail(
        new NamespaceTaken({
          message: `The namespace "${manifest.namespace}" is already used by ${other.id}.`,
          details: { namespace: manifest.namespace, by: other.id }
        })
      )
    }
  }
  return Effect.void
}

/** The capabilities the plugin may use: what it declared, once every declared kind is granted. */
export const checkGrants = (
  manifest: PluginManifest,
  granted: ReadonlyArray<CapabilityKind>
): Effect.Effect<ReadonlyArray<CapabilityKind>, MissingGrants> => {
  const declared = manifest.capabilities.map((capability) => capability.kind)
  const missing = declared.filter((kind) => !granted.includes(kind))
  if (missing.length > 0) {
    return Effect.fail(
      new MissingGrants({
        message: `${manifest.id} needs capabilities that were not granted: ${missing.join(", ")}.`,
        details: { missing }
      })
    )
  }
  return Effect.succeed(declared)
}

/** A bearer token at install is for a remote MCP server only (the MCP feature seals and sends it). */
export const checkMcpToken = (manifest: PluginManifest, token: unknown): Effect.Effect<void, UnexpectedMcpToken> =>
  token === undefined || (manifest.mcp !== null && "url" in manifest.mcp)
    ? Effect.void
    : Effect.fail(
        new UnexpectedMcpToken({
          message: `${manifest.id} is not a remote MCP server (mcp.url), so it takes no mcpToken.`,
          details: { id: manifest.id }
        })
      )
