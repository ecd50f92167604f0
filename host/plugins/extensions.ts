/**
 * The node's extension host, booted with the built-in plugins. Capability adapters arrive
 * here as the features that implement them land (signals, storage, llm, ...); until then a
 * granted capability without an adapter stays absent from a plugin's context.
 */
import { builtins } from "../../extensions/builtins.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { hostVersion } from "../version.ts"

export const ExtensionsLive = ExtensionHost.layer({ hostVersion, builtins, adapters: {} })
