/** Handlers of the group and crew routes: the caller comes from the session, the rules live in Groups and Crews. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Crews } from "./crews.ts"
import { Groups } from "./groups.ts"
import { ProjectDirectory } from "../../actors/project/contract/project-directory.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { GroupsApi } from "./contract/api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"

export const GroupsHandlers = HttpApiBuilder.group(apiOf(GroupsApi), "groups", (handlers) =>
  Effect.gen(function* () {
    const groups = yield* Groups
    const crews = yield* Crews
    const projects = yield* ProjectDirectory
    const caller = CurrentSession
    const projectOf = (projectId: string) =>
      Effect.map(
        projects.find(projectId),
        Option.match({ onNone: () => null, onSome: (row) => ({ id: row.id, ownerId: row.ownerId }) })
      )
    return handlers
      .handle("createGroup", ({ payload }) => Effect.flatMap(caller, (who) => groups.create(who, payload)))
      .handle("listGroups", () => Effect.flatMap(caller, groups.list))
      .handle("getGroup", ({ path }) => Effect.flatMap(caller, (who) => groups.get(who, path.id)))
      .handle("addMember", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => groups.addMember(who, path.id, payload))
      )
      .handle("removeMember", ({ path }) =>
        Effect.flatMap(caller, (who) => groups.removeMember(who, path.id, path.beingId))
      )
      .handle("updateGroup", ({ path, payload }) =>
        Effect.flatMap(caller, (who) => groups.update(who, path.id, payload))
      )
      .handle("treeMembers", ({ path }) => Effect.flatMap(caller, (who) => groups.treeMembers(who, path.id)))
      .handle("getCrew", ({ path }) =>
        Effect.flatMap(Effect.zip(caller, projectOf(path.projectId)), ([who, project]) =>
          crews.get(who, path.projectId, project)
        )
      )
      .handle("setCrew", ({ path, payload }) =>
        Effect.flatMap(Effect.zip(caller, projectOf(path.projectId)), ([who, project]) =>
          crews.set(who, path.projectId, project, payload)
        )
      )
  })
)
