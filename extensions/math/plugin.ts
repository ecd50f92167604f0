/** The Data family: math.evaluate. It needs no capability: it computes and touches nothing. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { evaluate } from "./evaluate.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/math",
  version: "1.0.0",
  namespace: "math",
  name: "Math",
  description: "Evaluate math expressions.",
  author: "svc",
  capabilities: [],
  extensions: [{ kind: "skill", id: "evaluate", title: "Evaluate an expression", uses: [] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "evaluate", evaluate)
}
