/**
 * The closed set of capabilities a plugin can ask for, and what the owner is told about each
 * before granting it. A grant is the only boundary: in-process plugin code is not sandboxed.
 */
import * as Schema from "effect/Schema"

export const capabilityKinds = [
  "network",
  "filesystem",
  "process",
  "llm",
  "storage",
  "memory",
  "signals",
  "schedule",
  "integrations",
  "credits",
  "world-acting"
] as const

export const CapabilityKind = Schema.Literal(...capabilityKinds)
export type CapabilityKind = typeof CapabilityKind.Type

/** Shown beside each capability on the install screen (GET /api/plugins/available). */
export const capabilityNotes: { readonly [K in CapabilityKind]: string } = {
  network: "Make requests to other hosts. Whatever the plugin sends leaves this node.",
  filesystem: "Read and write files in the workspaces it is given.",
  process: "Start programs on this machine.",
  llm: "Send prompts to the model tiers you configured; a remote tier receives the text.",
  storage: "Keep its own data in the node's database.",
  memory: "Read and add to your twin's memory.",
  signals: "Raise signals on your desktop.",
  schedule: "Schedule work to run later.",
  integrations: "Use your connected accounts (mail, chat, providers).",
  credits: "Spend credits from your wallet.",
  "world-acting": "Act in the world on your behalf (send, post, run code); each act waits for your approval."
}

export const pluginRiskStatement =
  "A plugin runs inside this node's process with every capability you grant it. " +
  "Install only plugins whose source you trust; market and URL sources are not verified."
