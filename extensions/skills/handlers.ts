/**
 * The studio's skill routes: the caller's session names the being; the route is the approval.
 * A call of a skill that may spend model budget counts in the `llm` rate class too (beside the
 * global budget the request policy already counted it in).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { invokeResult, Skills } from "../../kernel/extensions/skills.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { StudioSkillsApi } from "./contract/api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { RateLimiter } from "../../kernel/http/rate-limit.ts"

export const StudioSkillsHandlers = HttpApiBuilder.group(apiOf(StudioSkillsApi), "studioSkills", (handlers) =>
  Effect.gen(function* () {
    const skills = yield* Skills
    const limiter = yield* RateLimiter
    return handlers
      .handle("listSkills", () => skills.list)
      .handle("invokeSkill", ({ payload, request }) =>
        Effect.gen(function* () {
          if (skills.spendsModels(payload.name)) yield* limiter.charge(request, "llm", { global: false })
          const session = yield* CurrentSession
          const outcome = yield* skills.invoke({
            name: payload.name,
            input: payload.input,
            beingId: session.beingId,
            approved: true
          })
          return invokeResult(outcome)
        })
      )
  })
)
