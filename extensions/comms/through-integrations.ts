import type { IntegrationsAdapter } from "./integrations-capability.ts"
import { SkillFailure, type SkillRunContext } from "../../kernel/extensions/skill.ts"

/**
 * Runs a comms skill's act through the host's `integrations` adapter; its refusal (not configured,
 * refused by the service) becomes the skill's plain failure, named after the skill. Without the
 * adapter (a node or plugin that has none) the skill says so rather than crash.
 */
export const throughIntegrations = async <A>(
  skill: string,
  context: SkillRunContext,
  act: (integrations: IntegrationsAdapter) => Promise<A>
): Promise<A> => {
  const integrations = context.adapters.integrations
  if (integrations === undefined) {
    throw new SkillFailure({ message: `${skill}: mail and chat are not wired on this node (no integrations adapter).` })
  }
  try {
    return await act(integrations)
  } catch (error) {
    throw new SkillFailure({ message: `${skill}: ${error instanceof Error ? error.message : String(error)}` })
  }
}
