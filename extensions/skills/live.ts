/**
 * The skill runtime as the node runs it: over the extension host's skill registry, with the
 * approval gate asking through the owner's desktop signals and answering through the
 * `skill.invoke` signal action (timed skill runs fire through it from extensions/time/skill-runs.ts).
 */
import * as Layer from "effect/Layer"
import { Skills } from "../../kernel/extensions/skills.ts"
import { ExtensionsLive } from "../plugins/extensions.ts"
import { ApprovalActionLive, SkillApprovalsLive } from "./approvals.ts"

export const SkillsLive = ApprovalActionLive.pipe(
  Layer.provideMerge(Skills.layer),
  Layer.provide(SkillApprovalsLive),
  Layer.provide(ExtensionsLive)
)
