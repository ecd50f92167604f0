/**
 * The Code family: code.execute and code.scaffold_react_node. Running code acts on the world, so
 * each run waits for a human's approval; the code itself runs in the host's sandbox (the `process`
 * capability). Scaffolding writes a React app and builds it (the spec counts it world-acting too).
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { execute } from "./execute.ts"
import { scaffoldReactNode } from "./scaffold.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/code",
  version: "1.0.0",
  namespace: "code",
  name: "Code",
  description: "Run code in a sandbox; scaffold and build a React and Node app.",
  author: "svc",
  capabilities: [
    { kind: "process", reason: "runs the code you approve in the node's sandbox" },
    { kind: "world-acting", reason: "runs programs on this machine, each one only after you approve it" },
    {
      kind: "filesystem",
      reason: "writes and builds the app it scaffolds in the calling project's workspace or your uploads folder"
    }
  ],
  extensions: [
    { kind: "skill", id: "execute", title: "Execute code", uses: ["process", "world-acting"] },
    {
      kind: "skill",
      id: "scaffold_react_node",
      title: "Scaffold a React and Node app",
      uses: ["filesystem", "world-acting"]
    }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "execute", execute)
  context.contribute("skill", "scaffold_react_node", scaffoldReactNode)
}
