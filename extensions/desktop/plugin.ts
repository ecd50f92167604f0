/**
 * The Desktop family's signal.raise: how an agent or a skill tells a person something through their
 * desktop (agents never write signals directly). Its sibling schedule.create (namespace `schedule`,
 * so a plugin of its own) is extensions/schedule.
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { raise } from "./raise.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/desktop",
  version: "1.0.0",
  namespace: "signal",
  name: "Desktop",
  description: "Raise signals on the desktop of the person a call works for.",
  author: "svc",
  capabilities: [{ kind: "signals", reason: "puts the signals it is asked for on the desktop" }],
  extensions: [{ kind: "skill", id: "raise", title: "Raise a signal", uses: ["signals"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "raise", raise)
}
