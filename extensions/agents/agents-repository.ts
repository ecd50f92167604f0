/**
 * The `agents` table: one row per card, naming the being that wears it. Those beings are rows of
 * `beings`, written through the AgentBeings port (ports.ts) by the beings repository, not here.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, JsonColumn, operation } from "../../kernel/repository.ts"
import { Agent } from "./contract/agent.ts"

/** A card as stored: `skills` holds the chosen skills only (the baseline is added on read). */
export const StoredAgent = Schema.Struct({
  ...Agent.fields,
  skills: JsonColumn(Schema.Array(Schema.String)),
  isPublic: BooleanColumn
})
export type StoredAgent = typeof StoredAgent.Type

const columns = `id, owner_id AS "ownerId", being_id AS "beingId", name, role, description, avatar, skills, tier,
  system_prompt AS "systemPrompt", is_public AS "isPublic", created_at AS "createdAt"`

const Editable = StoredAgent.pick(
  "id",
  "name",
  "role",
  "description",
  "avatar",
  "skills",
  "tier",
  "systemPrompt",
  "isPublic"
)

export class AgentsRepository extends Effect.Service<AgentsRepository>()("agents/AgentsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const findById = operation(
      "agents.findById",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredAgent,
        execute: (id) => sql`SELECT ${all} FROM agents WHERE id = ${id}`
      })
    )

    /** The caller's own cards and everyone's public ones, newest first. */
    const listVisibleTo = operation(
      "agents.listVisibleTo",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredAgent,
        execute: (callerId) =>
          sql`SELECT ${all} FROM agents WHERE owner_id = ${callerId} OR is_public = 1 ORDER BY created_at DESC, id`
      })
    )

    const listOwnedBy = operation(
      "agents.listOwnedBy",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredAgent,
        execute: (ownerId) => sql`SELECT ${all} FROM agents WHERE owner_id = ${ownerId} ORDER BY created_at DESC, id`
      })
    )

    /** Writes the card, worn by the being it names (raised or chosen by the service). */
    const insert = operation(
      "agents.insert",
      SqlSchema.void({
        Request: StoredAgent,
        execute: (agent) =>
          sql`INSERT INTO agents ${sql.insert({
            id: agent.id,
            owner_id: agent.ownerId,
            being_id: agent.beingId,
            name: agent.name,
            role: agent.role,
            description: agent.description,
            avatar: agent.avatar,
            skills: agent.skills,
            tier: agent.tier,
            system_prompt: agent.systemPrompt,
            is_public: agent.isPublic,
            created_at: agent.createdAt
          })}`
      })
    )

    /** Writes the card's editable fields and the being that wears it (a changed persona moves the card). */
    const update = operation(
      "agents.update",
      SqlSchema.void({
        Request: Schema.Struct({ ...Editable.fields, beingId: Schema.String }),
        execute: (agent) =>
          sql`UPDATE agents SET name = ${agent.name}, role = ${agent.role}, description = ${agent.description},
          avatar = ${agent.avatar}, skills = ${agent.skills}, tier = ${agent.tier}, system_prompt = ${agent.systemPrompt},
          is_public = ${agent.isPublic}, being_id = ${agent.beingId} WHERE id = ${agent.id}`
      })
    )

    /** The cards a being wears, by id: the service renames or releases the being by them. */
    const wornBy = operation(
      "agents.wornBy",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (beingId) => sql`SELECT id FROM agents WHERE being_id = ${beingId} ORDER BY id`
      })
    )

    /** Deletes the card (the service then releases its being). */
    const remove = operation(
      "agents.remove",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM agents WHERE id = ${id}`
      })
    )

    return { findById, listVisibleTo, listOwnedBy, wornBy, insert, update, remove } as const
  })
}) {}
