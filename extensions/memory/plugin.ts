/**
 * The Memory family: memory.store and memory.recall over the twin of the being a call works for.
 * The twin's memory store implements the adapter (extensions/twin/memory-adapter.ts); where a host gives
 * none, both skills answer with a plain note.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { recall } from "./recall.ts"
import { store } from "./store.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/memory",
  version: "1.0.0",
  namespace: "memory",
  name: "Memory",
  description: "Remember and recall in the twin of the person a call works for.",
  author: "svc",
  capabilities: [{ kind: "memory", reason: "reads and adds to the twin's memory of the person a call works for" }],
  extensions: [
    { kind: "skill", id: "store", title: "Remember", uses: ["memory"] },
    { kind: "skill", id: "recall", title: "Recall", uses: ["memory"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "store", store)
  context.contribute("skill", "recall", recall)
}
