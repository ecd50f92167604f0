/** The studio's skill routes: the caller's session names the being; the route is the approval. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { invokeResult, Skills } from "../../kernel/extensions/skills.ts"
import { NodeApi } from "../contract/api.ts"
import { CurrentSession } from "../auth/contract/session.ts"

export const StudioSkillsHandlers = HttpApiBuilder.group(NodeApi, "studioSkills", (handlers) =>
  Effect.map(Skills, (skills) =>
    handlers
      .handle("listSkills", () => skills.list)
      .handle("invokeSkill", ({ payload }) =>
        Effect.flatMap(CurrentSession, (session) =>
          skills.invoke({ name: payload.name, input: payload.input, beingId: session.beingId, approved: true })).pipe(
            Effect.map(invokeResult)
          ))
  )
)
