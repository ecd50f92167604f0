/** Handlers of the agent routes: the caller is the session's being, the rules live in the Agents service. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Agents } from "./contract/agents.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { StudioAgentsApi } from "./contract/api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"

export const StudioAgentsHandlers = HttpApiBuilder.group(apiOf(StudioAgentsApi), "studioAgents", (handlers) =>
  Effect.gen(function* () {
    const agents = yield* Agents
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("listAgents", () => Effect.flatMap(caller, agents.list))
      .handle("createAgent", ({ payload }) => Effect.flatMap(caller, (beingId) => agents.create(beingId, payload)))
      .handle("getAgent", ({ path }) => Effect.flatMap(caller, (beingId) => agents.get(beingId, path.id)))
      .handle("editAgent", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => agents.update(beingId, path.id, payload))
      )
      .handle("deleteAgent", ({ path }) =>
        Effect.flatMap(caller, (beingId) => agents.remove(beingId, path.id)).pipe(Effect.as({ ok: true } as const))
      )
  })
)
