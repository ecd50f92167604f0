/** The Desktop family's schedule.create: a reminder, or a run of another skill, set for a later time. */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { create } from "./create.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/schedule",
  version: "1.0.0",
  namespace: "schedule",
  name: "Schedule",
  description: "Set reminders, and runs of other skills, for the person a call works for at their time.",
  author: "svc",
  capabilities: [{ kind: "schedule", reason: "holds each reminder and each timed skill run until its time" }],
  extensions: [{ kind: "skill", id: "create", title: "Schedule a reminder or a skill run", uses: ["schedule"] }]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "create", create)
}
