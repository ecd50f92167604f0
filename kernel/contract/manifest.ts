/**
 * The plugin manifest (`plugin.json`, or the `manifest` export of a built-in) and where a plugin
 * came from. Decoding a manifest is the whole of validation that needs no context: every
 * later rule (reserved namespaces, clashes, grants, versions) lives in install-rules.ts.
 * The HTTP contract (and so the UI bundle) reuses these schemas, so they hold no semver: the
 * versions' own check is kernel/extensions/manifest.ts, which refines this schema.
 */
import * as Schema from "effect/Schema"
import { CapabilityKind } from "./capabilities.ts"
import { moduleDeclarationIssues } from "./modules.ts"

const nonEmpty = (what: string) =>
  Schema.String.pipe(Schema.filter((value) => value.trim() !== "" || `${what} must not be empty`))

/** One lowercase segment: it becomes the first half of every contribution's full name. */
const segment = (what: string, maxLength: number) =>
  Schema.String.pipe(
    Schema.filter(
      (value) =>
        (/^[a-z][a-z0-9_-]*$/.test(value) && value.length <= maxLength) ||
        `${what} must be one lowercase segment (a letter, then letters, digits, '_' or '-'; at most ${maxLength}), got ${JSON.stringify(value)}`
    )
  )

export const ApiVersion = Schema.String.pipe(
  Schema.filter(
    (value) => /^\d+\.\d+$/.test(value) || `apiVersion must be "major.minor" (e.g. "1.0"), got ${JSON.stringify(value)}`
  )
)

/** npm-shaped and scoped: '@author/name'. */
export const PluginId = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (/^@[a-z0-9][a-z0-9._~-]*\/[a-z0-9][a-z0-9._~-]*$/.test(value) && value.length <= 214) ||
      `id must be npm-shaped '@author/name' in lowercase, got ${JSON.stringify(value)}`
  )
)

export const Namespace = segment("namespace", 40)
export const ExtensionId = segment("extension id", 64)

/** Resolved inside the plugin's own folder, so it may not be absolute or climb out. */
const MainPath = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (value.trim() !== "" && !/^([/\\]|[A-Za-z]:)/.test(value) && !value.split(/[/\\]/).includes("..")) ||
      `main must be a path inside the plugin folder, got ${JSON.stringify(value)}`
  )
)

export const PluginCapability = Schema.Struct({
  kind: CapabilityKind,
  /** Shown verbatim to the owner; mandatory for world-acting. */
  reason: Schema.optional(Schema.String)
}).pipe(
  Schema.filter(
    (capability) =>
      capability.kind !== "world-acting" ||
      (capability.reason ?? "").trim() !== "" || {
        path: ["reason"],
        message: "a world-acting capability needs a non-empty reason, shown verbatim to the owner"
      }
  )
)
export type PluginCapability = typeof PluginCapability.Type

/**
 * The document's seven kinds, plus `module`: a place of the web app (`/m/<namespace>.<id>`) whose
 * HTML document comes from the plugin's folder (its fields in ./modules.ts).
 */
export const extensionKinds = [
  "skill",
  "generator",
  "widget",
  "integration",
  "viewer",
  "editor",
  "theme",
  "module"
] as const
export const ExtensionKind = Schema.Literal(...extensionKinds)
export type ExtensionKind = typeof ExtensionKind.Type

/** Kind-specific fields beyond these travel as Json, read by the feature that owns the kind. */
export const PluginExtension = Schema.Struct(
  {
    kind: ExtensionKind,
    id: ExtensionId,
    title: Schema.optional(Schema.String),
    description: Schema.optional(Schema.String),
    /** The capabilities this contribution is handed: a subset of the plugin's own. */
    uses: Schema.Array(CapabilityKind)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type PluginExtension = typeof PluginExtension.Type

/**
 * An MCP server the plugin is (docs/plugins.md "MCP servers"): a command in its folder spoken to over stdio, run in the
 * node's process sandbox, or a remote server by URL (https, or http on loopback), reached with the `network` grant. Its tools become the
 * plugin's skills, `<namespace>.<tool>`, listed at install and at every boot.
 */
/** https, or plain http to the node's own machine (a server beside it, no token crossing a network in clear). */
const remoteServerUrl = (value: string) => {
  if (!URL.canParse(value) || /\s/.test(value)) return false
  const url = new URL(value)
  return (
    url.protocol === "https:" ||
    (url.protocol === "http:" && /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/.test(url.hostname))
  )
}

export const McpServerDeclaration = Schema.Union(
  Schema.Struct({
    command: MainPath,
    args: Schema.optionalWith(Schema.Array(Schema.String.pipe(Schema.maxLength(500))).pipe(Schema.maxItems(32)), {
      default: () => []
    })
  }),
  Schema.Struct({
    /** Checked in manifestRules, so a bad URL is said as such rather than as the stdio form's missing command. */
    url: Schema.String.pipe(Schema.maxLength(2000))
  })
)
export type McpServerDeclaration = typeof McpServerDeclaration.Type

export const Pricing = Schema.Struct({
  model: Schema.Literal("free", "one-time", "per-run", "subscription"),
  credits: Schema.Number.pipe(
    Schema.filter((credits) => (Number.isFinite(credits) && credits >= 0) || "credits must be a number >= 0")
  )
})
export type Pricing = typeof Pricing.Type

const duplicates = (values: ReadonlyArray<string>) => [
  ...new Set(values.filter((value, index) => values.indexOf(value) !== index))
]

/** The manifest's fields; kernel/extensions/manifest.ts checks version and minHostVersion as semver over them. */
export const manifestFields = {
  apiVersion: ApiVersion,
  id: PluginId,
  /** Semver ("1.2.0"); checked as such where a manifest is read (kernel/extensions/manifest.ts). */
  version: nonEmpty("version"),
  namespace: Namespace,
  name: nonEmpty("name"),
  description: Schema.optionalWith(Schema.String, { default: () => "" }),
  icon: Schema.optionalWith(Schema.String, { default: () => "" }),
  author: Schema.optionalWith(Schema.String, { default: () => "" }),
  license: Schema.optionalWith(Schema.String, { default: () => "" }),
  main: Schema.optionalWith(Schema.NullOr(MainPath), { default: () => null }),
  capabilities: Schema.optionalWith(Schema.Array(PluginCapability), { default: () => [] }),
  extensions: Schema.optionalWith(Schema.Array(PluginExtension), { default: () => [] }),
  pricing: Schema.optionalWith(Pricing, { default: () => ({ model: "free" as const, credits: 0 }) }),
  /** A semver version (this or newer) or range; checked where a manifest is read. */
  minHostVersion: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  mcp: Schema.optionalWith(Schema.NullOr(McpServerDeclaration), { default: () => null })
}

/** The rules across fields: no capability or extension id twice; an extension uses only declared capabilities. */
export const manifestRules = (manifest: Schema.Struct.Type<typeof manifestFields>): Array<Schema.FilterIssue> => {
  const declared = new Set(manifest.capabilities.map((capability) => capability.kind))
  const issues: Array<Schema.FilterIssue> = []
  for (const kind of duplicates(manifest.capabilities.map((capability) => capability.kind))) {
    issues.push({ path: ["capabilities"], message: `capability "${kind}" is declared more than once` })
  }
  for (const id of duplicates(manifest.extensions.map((extension) => extension.id))) {
    issues.push({ path: ["extensions"], message: `extension id "${id}" is used more than once` })
  }
  manifest.extensions.forEach((extension, index) => {
    const undeclared = extension.uses.filter((kind) => !declared.has(kind))
    if (extension.kind === "module") issues.push(...moduleDeclarationIssues(extension, index))
    if (undeclared.length > 0) {
      issues.push({
        path: ["extensions", index, "uses"],
        message:
          `extension "${extension.id}" uses ${undeclared.map((kind) => `"${kind}"`).join(", ")}, ` +
          "which the plugin does not declare in capabilities"
      })
    }
  })
  if (manifest.mcp !== null && "url" in manifest.mcp) {
    const { url } = manifest.mcp
    if (!remoteServerUrl(url)) {
      issues.push({
        path: ["mcp", "url"],
        message: `mcp.url must be an https URL (or http on a loopback address), got ${JSON.stringify(url.slice(0, 200))}`
      })
    }
    if (!declared.has("network")) {
      issues.push({
        path: ["mcp", "url"],
        message: "a remote MCP server (mcp.url) needs the network capability declared"
      })
    }
  }
  return issues
}

export const PluginManifest = Schema.Struct(manifestFields).pipe(
  Schema.filter(manifestRules),
  Schema.annotations({ identifier: "PluginManifest" })
)
export type PluginManifest = typeof PluginManifest.Type
/** What a manifest is written as: optional fields may be left out. */
export type PluginManifestInput = typeof PluginManifest.Encoded

export const PluginSource = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("builtin") }),
  /** `dir` is relative to the plugin folder (PLUGIN_DIR), so the listing shows no host paths. */
  Schema.Struct({ kind: Schema.Literal("local"), dir: Schema.String }),
  Schema.Struct({
    kind: Schema.Literal("market"),
    listingId: Schema.String,
    packageName: Schema.String,
    version: Schema.String
  }),
  Schema.Struct({ kind: Schema.Literal("url"), url: Schema.String, integrity: Schema.NullOr(Schema.String) })
)
export type PluginSource = typeof PluginSource.Type
