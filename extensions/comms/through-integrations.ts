import * as Effect from "effect/Effect"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"
import type { IntegrationsAdapter } from "./integrations-capability.ts"
import { SkillFailure, type SkillRunContext } from "../../kernel/extensions/skill.ts"

/**
 * Runs a comms skill's act through the host's `integrations` adapter; its refusal (not configured,
 * refused by the service) becomes the skill's plain failure, named after the skill. Without the
 * adapter (a node or plugin that has none) the skill says so rather than crash.
 */
export const throughIntegrations = <A>(
  skill: string,
  context: SkillRunContext,
  act: (integrations: IntegrationsAdapter) => Effect.Effect<A, CapabilityRefused>
): Effect.Effect<A, SkillFailure> => {
  const integrations = context.adapters.integrations
  if (integrations === undefined) {
    return new SkillFailure({
      message: `${skill}: mail and chat are not wired on this node (no integrations adapter).`
    })
  }
  return Effect.mapError(act(integrations), (refusal) => new SkillFailure({ message: `${skill}: ${refusal.message}` }))
}
