/**
 * The extension host's refusals: installing, loading and uninstalling a plugin, and registering
 * what it contributes. Each its own tag for callers, its status and code (docs/api.md,
 * docs/plugins.md) fixed for the wire.
 */
import { refusal } from "./errors.ts"

/** plugin.json is missing, unreadable, too large or does not fit the manifest's schema. */
export class InvalidManifest extends refusal(400, "InvalidManifest", "invalid_manifest") {}
/** A stored plugin's plugin.json now names another id or namespace than the one installed. */
export class ManifestChanged extends refusal(400, "ManifestChanged", "manifest_changed") {}
/** The folder a request names is not inside the plugin folder (nor is its real path). */
export class OutsidePluginDir extends refusal(400, "OutsidePluginDir", "outside_plugin_dir") {}
/** The plugin is built for a plugin API this node does not speak. */
export class UnsupportedApiVersion extends refusal(400, "UnsupportedApiVersion", "unsupported_api_version") {}
/** The plugin needs a newer node than this one. */
export class HostTooOld extends refusal(400, "HostTooOld", "host_too_old") {}
/** The namespace is kept for the node's built-ins. */
export class ReservedNamespace extends refusal(400, "ReservedNamespace", "reserved_namespace") {}
/** Capabilities the plugin declares were not granted. */
export class MissingGrants extends refusal(400, "MissingGrants", "missing_grants") {}
/** The plugin's activate threw, timed out, or left a declared extension uncontributed or misshapen. */
export class ActivationFailed extends refusal(400, "ActivationFailed", "activation_failed") {}
/** An install gave an MCP token for a plugin that is not a remote MCP server. */
export class UnexpectedMcpToken extends refusal(400, "UnexpectedMcpToken", "invalid_request") {}
/** A built-in cannot be uninstalled. */
export class BuiltinPlugin extends refusal(400, "BuiltinPlugin", "builtin_plugin") {}
/** No plugin of that id is installed. */
export class PluginNotFound extends refusal(404, "PluginNotFound", "not_found") {}
/** A plugin of that id is installed already. */
export class PluginInstalled extends refusal(409, "PluginInstalled", "plugin_installed") {}
/** Another installed plugin holds the namespace. */
export class NamespaceTaken extends refusal(409, "NamespaceTaken", "namespace_taken") {}
/** A contribution of that kind and name is registered already. */
export class ContributionTaken extends refusal(409, "ContributionTaken", "contribution_taken") {}

/** What an install may be refused with. */
export type InstallRefusal =
  | OutsidePluginDir
  | InvalidManifest
  | UnsupportedApiVersion
  | HostTooOld
  | ReservedNamespace
  | PluginInstalled
  | NamespaceTaken
  | MissingGrants
  | ActivationFailed
  | ContributionTaken
  | UnexpectedMcpToken

/** What an uninstall may be refused with. */
export type UninstallRefusal = PluginNotFound | BuiltinPlugin
