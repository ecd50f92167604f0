import { SkillFailure } from "../../kernel/extensions/skill.ts"

/** The plain refusal of a comms skill on a node (or in a plugin) without the `integrations` adapter. */
export const notWired = (skill: string): never => {
  throw new SkillFailure({ message: `${skill}: mail and chat are not wired on this node (no integrations adapter).` })
}
