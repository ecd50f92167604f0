/** The built-in themes, contributed through the same plugin API a third-party theme uses. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { dark, light } from "./palettes.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/themes",
  version: "1.0.0",
  namespace: "themes",
  name: "Themes",
  description: "The node's light and dark themes.",
  author: "svc",
  capabilities: [],
  extensions: [
    { kind: "theme", id: "light", title: "Light", uses: [] },
    { kind: "theme", id: "dark", title: "Dark", uses: [] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("theme", "light", light)
  context.contribute("theme", "dark", dark)
}
