/**
 * Groups: create, list, read, add and remove members, rename and move, and read a whole tree.
 * Every check reads the caller's exact membership of one group id (containment grants nothing):
 * a member of a group may read it; its lead (role 'lead') or the node's owner may change it and
 * read its tree; placing a group inside another needs the same of both ends. The creator is the
 * new group's lead; a group keeps at least one lead.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import {
  BeingNotFound,
  GroupCycle,
  GroupNotFound,
  GroupTooDeep,
  LastLead,
  MemberNotFound,
  NotALead,
  NotAMember
} from "./contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../accounts/contract/session.ts"
import {
  leadRole,
  maxGroupDepth,
  type AddMemberBody,
  type CreateGroupBody,
  type Group,
  type GroupDetail,
  type UpdateGroupBody
} from "./contract/records.ts"
import { GroupsRepository } from "./groups-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

const newId = () => randomBytes(12).toString("base64url")

const groupNotFound = (id: string) =>
  new GroupNotFound({ message: "There is no group with that id.", details: { groupId: id } })

export const notAMember = (group: Group) =>
  new NotAMember({
    message: `You are not a member of "${group.name}".`,
    details: { groupId: group.id }
  })

export const notALead = (group: Group) =>
  new NotALead({
    message: `Only a lead of "${group.name}" or the node's owner can do that.`,
    details: { groupId: group.id }
  })

const isLead = (role: string | null) => role !== null && role.trim().toLowerCase() === leadRole

export class Groups extends Effect.Service<Groups>()("groups/Groups", {
  dependencies: [GroupsRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* GroupsRepository

    const atomically = <A, E, R>(self: Effect.Effect<A, E, R>) => sql.withTransaction(self).pipe(orDieOnStorageFault)

    const found = (id: string) =>
      Effect.flatMap(
        repository.findById(id),
        Option.match({ onNone: () => Effect.fail(groupNotFound(id)), onSome: Effect.succeed })
      )

    /** The caller's role in exactly this group, or null. */
    const roleOf = (caller: Caller, groupId: string) =>
      Effect.map(
        repository.roleOf({ groupId, beingId: caller.beingId }),
        Option.match({ onNone: () => null, onSome: ({ role }) => role })
      )

    /** The group, if the caller is one of its members or the owner. */
    const readable = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const group = yield* found(id)
        if (caller.isOwner || (yield* roleOf(caller, id)) !== null) return group
        return yield* notAMember(group)
      })

    /** The group, if the caller leads it or owns the node. */
    const manageable = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const group = yield* found(id)
        if (caller.isOwner || isLead(yield* roleOf(caller, id))) return group
        return yield* notALead(group)
      })

    /** How deep the group sits: a top-level group is at depth 1. */
    const depthOf = (id: string) => Effect.map(repository.ancestry(id), (chain) => chain.length)

    const detail = (group: Group) =>
      Effect.map(repository.members(group.id), (members): GroupDetail => ({ group, members }))

    const tooDeep = (depth: number) =>
      new GroupTooDeep({
        message: `Groups nest at most ${maxGroupDepth} deep; this would make ${depth}.`,
        details: { depth, max: maxGroupDepth }
      })

    const create = (caller: Caller, body: CreateGroupBody) =>
      Effect.gen(function* () {
        if (body.parentId !== undefined) {
          yield* manageable(caller, body.parentId)
          const depth = (yield* depthOf(body.parentId)) + 1
          if (depth > maxGroupDepth) return yield* tooDeep(depth)
        }
        const group: Group = {
          id: newId(),
          name: body.name,
          kind: body.kind,
          parentId: body.parentId ?? null,
          createdBy: caller.beingId,
          createdAt: yield* nowIso
        }
        yield* atomically(
          Effect.zipRight(
            repository.insert(group),
            repository.putMember({ groupId: group.id, beingId: caller.beingId, role: leadRole, at: group.createdAt })
          )
        )
        return group
      }).pipe(spanNamed("groups.create"))

    /** The owner sees every group; anyone else the groups they are an exact member of. */
    const list = (caller: Caller) =>
      (caller.isOwner ? repository.listAll(caller.beingId) : repository.listOf(caller.beingId)).pipe(
        spanNamed("groups.list")
      )

    const get = (caller: Caller, id: string) =>
      Effect.flatMap(readable(caller, id), detail).pipe(spanNamed("groups.get"))

    /** Refuses a change that would leave the group with no lead. */
    const keepsALead = (group: Group, beingId: string, nextRole: string | null) =>
      Effect.gen(function* () {
        const current = Option.getOrNull(yield* repository.roleOf({ groupId: group.id, beingId }))
        if (current === null || !isLead(current.role) || isLead(nextRole)) return
        if ((yield* repository.countWithRole({ groupId: group.id, role: leadRole })) <= 1) {
          return yield* new LastLead({
            message: `"${group.name}" would have no lead; make someone else its lead first.`,
            details: { groupId: group.id, beingId }
          })
        }
      })

    const addMember = (caller: Caller, id: string, body: AddMemberBody) =>
      Effect.gen(function* () {
        const group = yield* manageable(caller, id)
        if (Option.isNone(yield* repository.beingExists(body.beingId))) {
          return yield* new BeingNotFound({
            message: "There is no being with that id.",
            details: { beingId: body.beingId }
          })
        }
        const role = isLead(body.role) ? leadRole : body.role
        yield* atomically(
          Effect.zipRight(
            keepsALead(group, body.beingId, role),
            Effect.flatMap(nowIso, (at) => repository.putMember({ groupId: id, beingId: body.beingId, role, at }))
          )
        )
        return yield* detail(group)
      }).pipe(spanNamed("groups.addMember"))

    const removeMember = (caller: Caller, id: string, beingId: string) =>
      Effect.gen(function* () {
        const group = yield* manageable(caller, id)
        yield* atomically(
          Effect.gen(function* () {
            if (Option.isNone(yield* repository.roleOf({ groupId: id, beingId }))) {
              return yield* new MemberNotFound({
                message: `That being is not a member of "${group.name}".`,
                details: { beingId }
              })
            }
            yield* keepsALead(group, beingId, null)
            yield* repository.removeMember({ groupId: id, beingId })
          })
        )
        return yield* detail(group)
      }).pipe(spanNamed("groups.removeMember"))

    /** Renames, and moves under another group (lead-or-owner of both ends) or to the top. */
    const update = (caller: Caller, id: string, body: UpdateGroupBody) =>
      Effect.gen(function* () {
        const group = yield* manageable(caller, id)
        const parentId = body.parentId === undefined ? group.parentId : body.parentId
        if (parentId !== group.parentId && parentId !== null) {
          yield* manageable(caller, parentId)
          const below = yield* repository.subtree(id)
          if (below.some((link) => link.id === parentId)) {
            return yield* new GroupCycle({
              message: "A group cannot move inside itself or a group below it.",
              details: { groupId: id, parentId }
            })
          }
          const depth = (yield* depthOf(parentId)) + heightOf(id, below)
          if (depth > maxGroupDepth) return yield* tooDeep(depth)
        }
        const next: Group = { ...group, name: body.name ?? group.name, parentId }
        yield* repository.update(next)
        return next
      }).pipe(spanNamed("groups.update"))

    const treeMembers = (caller: Caller, id: string) =>
      Effect.flatMap(manageable(caller, id), () => repository.treeMembers(id)).pipe(spanNamed("groups.treeMembers"))

    return {
      create,
      list,
      get,
      addMember,
      removeMember,
      update,
      treeMembers,
      found,
      roleOf,
      readable,
      manageable,
      isLead
    } as const
  })
}) {}

/** Levels from the group down to its deepest descendant, the group itself counted. */
const heightOf = (id: string, links: ReadonlyArray<{ readonly id: string; readonly parentId: string | null }>) => {
  const children = new Map<string, Array<string>>()
  for (const link of links)
    if (link.parentId !== null) children.set(link.parentId, [...(children.get(link.parentId) ?? []), link.id])
  const height = (at: string): number => 1 + Math.max(0, ...(children.get(at) ?? []).map(height))
  return height(id)
}
