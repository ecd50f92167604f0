/**
 * The skill runtime as the node runs it: over the extension host's skill registry, with the
 * approval gate asking through the owner's desktop signals and answering through the
 * `skill.invoke` signal action, and timed skill runs fired through it. The extension host
 * (`ExtensionHost`) is the node's: host/node.ts provides it.
 */
import * as Layer from "effect/Layer"
import { Skills } from "../../kernel/extensions/skills.ts"
import { ApprovalActionLive, SkillApprovalsLive } from "./approvals.ts"
import { SkillRunsLive } from "../time/skill-runs.ts"

export const SkillsLive = Layer.merge(ApprovalActionLive, SkillRunsLive).pipe(
  Layer.provideMerge(Skills.layer),
  Layer.provide(SkillApprovalsLive)
)
