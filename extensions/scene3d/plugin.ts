/** The 3D scene family: scene3d.create writes a scene as one HTML page into the file root. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { create } from "./create.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/scene3d",
  version: "1.0.0",
  namespace: "scene3d",
  name: "3D scenes",
  description: "Make 3D scenes as self-contained HTML pages.",
  author: "svc",
  capabilities: [
    { kind: "llm", reason: "asks the node's model to write the scene, charged like every model call" },
    { kind: "filesystem", reason: "saves the scene into the calling project's workspace or your uploads folder" }
  ],
  extensions: [{ kind: "skill", id: "create", title: "Create a 3D scene", uses: ["llm", "filesystem"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "create", create)
}
