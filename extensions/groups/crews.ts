/**
 * Crews: a group bound to a project, so the project's next run draws people from the group's
 * seats (its members, each with a role). Binding is for the project's owner or the node's owner;
 * binding a group needs exact membership of it, and drawing from the groups below it too
 * (`includeDescendants`) needs its lead or the node's owner. Only people take seats: an agent's
 * being in a group is staffed by team assembly as before.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
// A crew for a project the caller does not own (or that does not exist) is refused as the project is.
import { ProjectNotFound } from "../../actors/project/contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { CrewSeating } from "./contract/crew-seating.ts"
import type { CrewBody, GroupMember, ProjectCrew, Seat } from "./contract/records.ts"
import { CrewsRepository } from "./crews-repository.ts"
import { Groups } from "./groups.ts"
import { GroupsRepository } from "./groups-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The project as the crew routes need it: who owns it (null: no such project). */
export interface CrewProject {
  readonly id: string
  readonly ownerId: string
}

const projectNotFound = (projectId: string) =>
  new ProjectNotFound({ message: "You have no project with that id.", details: { projectId } })

export class Crews extends Effect.Service<Crews>()("groups/Crews", {
  dependencies: [CrewsRepository.Default, GroupsRepository.Default, Groups.Default],
  effect: Effect.gen(function* () {
    const crews = yield* CrewsRepository
    const groupsRepository = yield* GroupsRepository
    const groups = yield* Groups

    /** The project, if the caller owns it or the node; anyone else is told there is none. */
    const bindable = (caller: Caller, projectId: string, project: CrewProject | null) =>
      project !== null && (project.ownerId === caller.beingId || caller.isOwner)
        ? Effect.succeed(project)
        : Effect.fail(projectNotFound(projectId))

    const view = (projectId: string) =>
      Effect.map(
        crews.find(projectId),
        Option.match({
          onNone: (): ProjectCrew => ({ projectId, groupId: null, includeDescendants: false, setAt: null }),
          onSome: (row): ProjectCrew => ({ ...row })
        })
      )

    const get = (caller: Caller, projectId: string, project: CrewProject | null) =>
      Effect.flatMap(bindable(caller, projectId, project), () => view(projectId)).pipe(spanNamed("crews.get"))

    const set = (caller: Caller, projectId: string, project: CrewProject | null, body: CrewBody) =>
      Effect.gen(function* () {
        yield* bindable(caller, projectId, project)
        if (body.groupId !== null) {
          if (body.includeDescendants) yield* groups.manageable(caller, body.groupId)
          else yield* groups.readable(caller, body.groupId)
        }
        yield* crews.put({
          projectId,
          groupId: body.groupId,
          includeDescendants: body.groupId !== null && body.includeDescendants,
          setBy: caller.beingId,
          setAt: yield* nowIso
        })
        return yield* view(projectId)
      }).pipe(spanNamed("crews.set"))

    /** The project's seats and when its binding last changed; null when it was never bound. */
    const seatsFor = (projectId: string) =>
      Effect.gen(function* () {
        const row = Option.getOrNull(yield* crews.find(projectId))
        if (row === null) return null
        const members: ReadonlyArray<GroupMember> =
          row.groupId === null
            ? []
            : row.includeDescendants
              ? yield* groupsRepository.treeMembers(row.groupId)
              : yield* groupsRepository.members(row.groupId)
        const seats = members
          .filter((member) => member.beingKind === "human")
          .map((member): Seat => ({ beingId: member.beingId, role: member.role, name: member.displayName }))
        return { changedAt: row.setAt, seats }
      }).pipe(spanNamed("crews.seatsFor"))

    return { get, set, seatsFor } as const
  })
}) {}

/** The crews' seats as other features read them (contract/crew-seating.ts). */
export const CrewSeatingLive = Layer.effect(
  CrewSeating,
  Effect.map(Crews, (crews) => ({ seatsFor: crews.seatsFor }))
).pipe(Layer.provide(Crews.Default))
