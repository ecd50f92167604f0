/**
 * The closed set of capabilities a plugin can ask for, and what the owner is told about each
 * before granting it. A third-party plugin's code runs in an isolate of its own, so a grant is
 * the only way it reaches anything beyond computing.
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

/** Shown beside each capability on the install screen (the plugins feature's list of available plugins). */
export const capabilityNotes: { readonly [K in CapabilityKind]: string } = {
  network: "Make requests to other hosts. Whatever the plugin sends leaves this node.",
  filesystem: "Read and write files in its own data folder on this node (a built-in: the workspace of the call).",
  process: "Run code in this node's sandbox.",
  llm: "Send prompts to the model tiers you configured; a remote tier receives the text.",
  storage: "Keep its own data in the node's database, apart for each person who uses it (at most 1 MB each).",
  memory: "Read and add to your twin's memory.",
  signals: "Raise signals on your desktop.",
  schedule: "Schedule work to run later.",
  integrations: "Use your connected accounts (mail, chat, providers).",
  credits:
    "Spend credits from your wallet into its own account, up to a daily limit for each person (PLUGIN_CREDITS_DAILY_LIMIT).",
  "world-acting": "Act in the world on your behalf (send, post, run code); each act waits for your approval."
}

export const pluginRiskStatement =
  "A plugin's code runs in an isolate of its own: it cannot reach this node's files, network, programs or " +
  "secrets except through the capabilities you grant it, and with those it acts as you. Grant only what it " +
  "needs, and install only plugins whose source you trust; market and URL sources are not verified."
