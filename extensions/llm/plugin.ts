/**
 * The LLM family: llm.generate and llm.structured, the node's 'cheap' and 'standard' model tiers
 * as skills. Each call is recorded against the calling being and project (GET /api/llm/usage).
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { generate } from "./generate.ts"
import { structured } from "./structured.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/llm",
  version: "1.0.0",
  namespace: "llm",
  name: "LLM",
  description: "Ask the node's models for text, or for JSON that fits a schema.",
  author: "svc",
  capabilities: [{ kind: "llm", reason: "sends the prompts it is given to the model tiers you configured" }],
  extensions: [
    { kind: "skill", id: "generate", title: "Generate text", uses: ["llm"] },
    { kind: "skill", id: "structured", title: "Generate JSON", uses: ["llm"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "generate", generate)
  context.contribute("skill", "structured", structured)
}
