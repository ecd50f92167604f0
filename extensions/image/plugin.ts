/** The Image family: image.generate draws with the node's image tier into the file root. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { generate } from "./generate.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/image",
  version: "1.0.0",
  namespace: "image",
  name: "Image",
  description: "Draw pictures with the node's image model and save them as PNG files.",
  author: "svc",
  capabilities: [
    { kind: "llm", reason: "asks the node's image model for the picture, charged like every model call" },
    { kind: "filesystem", reason: "saves the picture into the calling project's workspace or your uploads folder" }
  ],
  extensions: [{ kind: "skill", id: "generate", title: "Generate an image", uses: ["llm", "filesystem"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "generate", generate)
}
