/**
 * The skill runtime as the node runs it: over the extension host's skill registry, with the
 * approval gate asking through the owner's desktop signals and answering through the
 * `skill.invoke` signal action (time's timed skill runs fire through it too). The runtime reads the
 * loaded contributions; the extension host (`ExtensionHost`) that loads them is the node's
 * (host/node.ts provides it).
 */
import * as Layer from "effect/Layer"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import { ApprovalActionLive, SkillApprovalsLive } from "./approvals.ts"

/**
 * The runtime alone: it reads the kernel's LoadedContributions, not the extension host, so the
 * features the host's adapters call (agents check skill names) can stand below the host.
 */
export const SkillsRuntimeLive = Skills.layer.pipe(Layer.provide(SkillApprovalsLive))

/** With its signal action, started once the extension host has loaded the skills it calls. */
export const SkillsLive = ApprovalActionLive.pipe(
  Layer.provideMerge(SkillsRuntimeLive),
  // The host loads the skills before the action or a timed run can call one.
  Layer.provide(Layer.effectDiscard(ExtensionHost))
)
