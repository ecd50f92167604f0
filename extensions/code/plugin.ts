/**
 * The Code family: code.execute so far. Running code acts on the world, so each run waits for a
 * human's approval; the code itself runs in the host's sandbox (the `process` capability).
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { execute } from "./execute.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/code",
  version: "1.0.0",
  namespace: "code",
  name: "Code",
  description: "Run code in a sandbox.",
  author: "svc",
  capabilities: [
    { kind: "process", reason: "runs the code you approve in the node's sandbox" },
    { kind: "world-acting", reason: "runs programs on this machine, each one only after you approve it" }
  ],
  extensions: [{ kind: "skill", id: "execute", title: "Execute code", uses: ["process", "world-acting"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "execute", execute)
}
