/** The Desktop family's schedule.create: a reminder an agent or a skill sets for a later time. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { create } from "./create.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/schedule",
  version: "1.0.0",
  namespace: "schedule",
  name: "Schedule",
  description: "Set reminders that reach the desktop of the person a call works for at their time.",
  author: "svc",
  capabilities: [{ kind: "schedule", reason: "holds each reminder until its time" }],
  extensions: [{ kind: "skill", id: "create", title: "Schedule a reminder", uses: ["schedule"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "create", create)
}
