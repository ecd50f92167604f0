/** Handlers of the project routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { NotAMakeRequest } from "./contract/errors.ts"
import { Projects } from "./projects.ts"
import { ProjectReplays } from "./replay.ts"
import { isMakeRequest } from "./contract/make-request.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { StudioProjectsApi } from "./contract/api.ts"
import { CurrentSession } from "../../extensions/accounts/contract/session.ts"

const notAMakeRequest = new NotAMakeRequest({
  message: "The omnibar starts a project from a sentence that asks for something to be made.",
  details: { hint: 'Start with make, build, write or draft: "Write a one-page brief on heat pumps".' }
})

export const StudioProjectsHandlers = HttpApiBuilder.group(apiOf(StudioProjectsApi), "studioProjects", (handlers) =>
  Effect.gen(function* () {
    const projects = yield* Projects
    const replays = yield* ProjectReplays
    // The session is the caller: its being, and whether that being owns the node.
    const caller = CurrentSession
    return handlers
      .handle("createProject", ({ payload }) => Effect.flatMap(caller, (who) => projects.create(who, payload)))
      .handle("listProjects", ({ urlParams }) => Effect.flatMap(caller, (who) => projects.list(who, urlParams)))
      .handle("getProject", ({ path }) => Effect.flatMap(caller, (who) => projects.get(who, path.id)))
      .handle("projectTrace", ({ path, urlParams }) =>
        Effect.flatMap(caller, (who) => projects.trace(who, path.id, urlParams.after ?? 0, urlParams.limit ?? 500))
      )
      .handle("cancelProject", ({ path }) => Effect.flatMap(caller, (who) => projects.cancel(who, path.id)))
      .handle("resumeProject", ({ path }) => Effect.flatMap(caller, (who) => projects.resume(who, path.id)))
      .handle("setProjectDue", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => projects.setDue(who, path.id, payload))
      )
      .handle("portfolio", ({ urlParams }) => Effect.flatMap(caller, (who) => projects.portfolio(who, urlParams)))
      .handle("queue", ({ urlParams }) => Effect.flatMap(caller, (who) => projects.queue(who, urlParams)))
      .handle("finishStep", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => projects.finishStep(who, path.taskId, payload))
      )
      .handle("editPlan", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => projects.editPlan(who, path.id, payload))
      )
      .handle("approveStep", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => projects.approveStep(who, path.taskId, payload))
      )
      .handle("rejectStep", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => projects.rejectStep(who, path.taskId, payload))
      )
      .handle("replayProject", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => replays.replay(who, path.id, payload))
      )
      .handle("forkProject", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => replays.fork(who, path.id, payload))
      )
      .handle("projectRuns", ({ path }) => Effect.flatMap(caller, (who) => replays.runs(who, path.id)))
      .handle("omnibar", ({ payload }) =>
        isMakeRequest(payload.text)
          ? Effect.flatMap(caller, (who) => projects.create(who, { brief: payload.text.trim() }))
          : Effect.fail(notAMakeRequest)
      )
  })
)
