/**
 * The `groups` and `group_members` tables. Member rows are read with the name and kind of the
 * being from `beings` (read only; people are the accounts' business, agents the agents'). Trees
 * are walked with recursive common table expressions, which SQLite and PostgreSQL both run.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"
import { Group, GroupMember, GroupSummary, TreeMember } from "./contract/records.ts"

const GroupLink = Schema.Struct({ id: Schema.String, parentId: Schema.NullOr(Schema.String) })
const Membership = Schema.Struct({ groupId: Schema.String, beingId: Schema.String })

export class GroupsRepository extends Effect.Service<GroupsRepository>()("groups/GroupsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const groupColumns = sql.literal(
      `g.id, g.name, g.kind, g.parent_id AS "parentId", g.created_by AS "createdBy", g.created_at AS "createdAt"`
    )
    const memberColumns =
      sql.literal(`m.being_id AS "beingId", b.handle, b.display_name AS "displayName", b.kind AS "beingKind",
      m.role, m.added_at AS "addedAt"`)

    const findById = operation(
      "groups.findById",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Group,
        execute: (id) => sql`SELECT ${groupColumns} FROM groups g WHERE g.id = ${id}`
      })
    )

    const insert = operation(
      "groups.insert",
      SqlSchema.void({
        Request: Group,
        execute: (group) => sql`INSERT INTO groups (id, name, kind, parent_id, created_by, created_at)
        VALUES (${group.id}, ${group.name}, ${group.kind}, ${group.parentId}, ${group.createdBy}, ${group.createdAt})`
      })
    )

    const update = operation(
      "groups.update",
      SqlSchema.void({
        Request: Group.pick("id", "name", "parentId"),
        execute: (group) =>
          sql`UPDATE groups SET name = ${group.name}, parent_id = ${group.parentId} WHERE id = ${group.id}`
      })
    )

    /** Every group, with the caller's role where they have one: the owner's list. */
    const listAll = operation(
      "groups.listAll",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GroupSummary,
        execute: (beingId) => sql`SELECT ${groupColumns}, m.role AS "myRole" FROM groups g
        LEFT JOIN group_members m ON m.group_id = g.id AND m.being_id = ${beingId} ORDER BY g.created_at, g.id`
      })
    )

    /** The groups the being is an exact member of. */
    const listOf = operation(
      "groups.listOf",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GroupSummary,
        execute: (beingId) => sql`SELECT ${groupColumns}, m.role AS "myRole" FROM groups g
        JOIN group_members m ON m.group_id = g.id WHERE m.being_id = ${beingId} ORDER BY g.created_at, g.id`
      })
    )

    /** The being's role in exactly this group. */
    const roleOf = operation(
      "groups.roleOf",
      SqlSchema.findOne({
        Request: Membership,
        Result: Schema.Struct({ role: Schema.String }),
        execute: ({ beingId, groupId }) =>
          sql`SELECT role FROM group_members WHERE group_id = ${groupId} AND being_id = ${beingId}`
      })
    )

    const members = operation(
      "groups.members",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GroupMember,
        execute: (groupId) => sql`SELECT ${memberColumns} FROM group_members m JOIN beings b ON b.id = m.being_id
        WHERE m.group_id = ${groupId} ORDER BY m.added_at, m.being_id`
      })
    )

    /** Adds the being, or gives one already in the new role (its first arrival is kept). */
    const putMember = operation(
      "groups.putMember",
      SqlSchema.void({
        Request: Schema.Struct({ ...Membership.fields, role: Schema.String, at: Schema.String }),
        execute: ({ at, beingId, groupId, role }) => sql`INSERT INTO group_members (group_id, being_id, role, added_at)
        VALUES (${groupId}, ${beingId}, ${role}, ${at}) ON CONFLICT (group_id, being_id) DO UPDATE SET role = excluded.role`
      })
    )

    const removeMember = operation(
      "groups.removeMember",
      SqlSchema.void({
        Request: Membership,
        execute: ({ beingId, groupId }) =>
          sql`DELETE FROM group_members WHERE group_id = ${groupId} AND being_id = ${beingId}`
      })
    )

    // A count always has its one row.
    const countRole = operation(
      "groups.countRole",
      SqlSchema.findAll({
        Request: Schema.Struct({ groupId: Schema.String, role: Schema.String }),
        Result: Schema.Struct({ count: Schema.Number }),
        execute: ({ groupId, role }) =>
          sql`SELECT count(*) AS count FROM group_members WHERE group_id = ${groupId} AND role = ${role}`
      })
    )
    const countWithRole = (request: { readonly groupId: string; readonly role: string }) =>
      Effect.map(countRole(request), (rows) => rows[0]?.count ?? 0)

    /** The group and the ones above it, nearest first. */
    const ancestry = operation(
      "groups.ancestry",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GroupLink,
        execute: (id) => sql`WITH RECURSIVE up (id, parent_id, n) AS (
          SELECT id, parent_id, 0 FROM groups WHERE id = ${id}
          UNION ALL SELECT g.id, g.parent_id, up.n + 1 FROM groups g JOIN up ON g.id = up.parent_id WHERE up.n < 64)
        SELECT id, parent_id AS "parentId" FROM up ORDER BY n`
      })
    )

    /** The group and every group below it. */
    const subtree = operation(
      "groups.subtree",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GroupLink,
        execute: (id) => sql`WITH RECURSIVE down (id, parent_id, n) AS (
          SELECT id, parent_id, 0 FROM groups WHERE id = ${id}
          UNION ALL SELECT g.id, g.parent_id, down.n + 1 FROM groups g JOIN down ON g.parent_id = down.id WHERE down.n < 64)
        SELECT id, parent_id AS "parentId" FROM down ORDER BY n`
      })
    )

    /** Every member of every group in the tree below (and of) the group, each row naming its group. */
    const treeMembers = operation(
      "groups.treeMembers",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: TreeMember,
        execute: (id) => sql`WITH RECURSIVE down (id, n) AS (
          SELECT id, 0 FROM groups WHERE id = ${id}
          UNION ALL SELECT g.id, down.n + 1 FROM groups g JOIN down ON g.parent_id = down.id WHERE down.n < 64)
        SELECT ${memberColumns}, g.id AS "groupId", g.name AS "groupName"
        FROM down JOIN groups g ON g.id = down.id JOIN group_members m ON m.group_id = g.id JOIN beings b ON b.id = m.being_id
        ORDER BY down.n, g.created_at, m.added_at, m.being_id`
      })
    )

    const beingExists = operation(
      "groups.beingExists",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (id) => sql`SELECT id FROM beings WHERE id = ${id}`
      })
    )

    return {
      findById,
      insert,
      update,
      listAll,
      listOf,
      roleOf,
      members,
      putMember,
      removeMember,
      countWithRole,
      ancestry,
      subtree,
      treeMembers,
      beingExists
    } as const
  })
}) {}
