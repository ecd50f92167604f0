/**
 * The `agents` table, and the rows of `beings` that wear the cards: a being of kind 'agent' is
 * raised with its card and has no email or password, so it can never sign in. Only this
 * repository writes those beings; people are the accounts' business. Each write to a being's
 * row tells BeingChanges, as every writer of `beings` must (the session cache forgets it).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BeingChanges } from "../../host/auth/contract/being-changes.ts"
import { BooleanColumn, JsonColumn, operation } from "../../kernel/repository.ts"
import { Agent } from "./contract/agent.ts"

/** A card as stored: `skills` holds the chosen skills only (the baseline is added on read). */
export const StoredAgent = Schema.Struct({ ...Agent.fields, skills: JsonColumn(Schema.Array(Schema.String)), isPublic: BooleanColumn })
export type StoredAgent = typeof StoredAgent.Type

const columns = `id, owner_id AS "ownerId", being_id AS "beingId", name, role, description, avatar, skills, tier,
  system_prompt AS "systemPrompt", is_public AS "isPublic", created_at AS "createdAt"`

const Editable = StoredAgent.pick("id", "name", "role", "description", "avatar", "skills", "tier", "systemPrompt", "isPublic")

export class AgentsRepository extends Effect.Service<AgentsRepository>()("agents/AgentsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)
    const changes = yield* BeingChanges

    const findById = operation("agents.findById", SqlSchema.findOne({
      Request: Schema.String,
      Result: StoredAgent,
      execute: (id) => sql`SELECT ${all} FROM agents WHERE id = ${id}`
    }))

    /** The caller's own cards and everyone's public ones, newest first. */
    const listVisibleTo = operation("agents.listVisibleTo", SqlSchema.findAll({
      Request: Schema.String,
      Result: StoredAgent,
      execute: (callerId) => sql`SELECT ${all} FROM agents WHERE owner_id = ${callerId} OR is_public = 1 ORDER BY created_at DESC, id`
    }))

    const listOwnedBy = operation("agents.listOwnedBy", SqlSchema.findAll({
      Request: Schema.String,
      Result: StoredAgent,
      execute: (ownerId) => sql`SELECT ${all} FROM agents WHERE owner_id = ${ownerId} ORDER BY created_at DESC, id`
    }))

    /** Raises the being that wears the card (its handle given), then writes the card. */
    const insert = operation("agents.insert", SqlSchema.void({
      Request: Schema.Struct({ agent: StoredAgent, handle: Schema.String }),
      execute: ({ agent, handle }) =>
        Effect.zipRight(
          sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
            VALUES (${agent.beingId}, 'agent', ${handle}, ${agent.name}, ${agent.createdAt})`,
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
        ).pipe(Effect.tap(() => changes.changed(agent.beingId)))
    }))

    /** Writes the card's editable fields; the being it raised carries its name. */
    const update = operation("agents.update", SqlSchema.void({
      Request: Schema.Struct({ ...Editable.fields, beingId: Schema.String }),
      execute: (agent) =>
        Effect.zipRight(
          sql`UPDATE agents SET name = ${agent.name}, role = ${agent.role}, description = ${agent.description},
            avatar = ${agent.avatar}, skills = ${agent.skills}, tier = ${agent.tier}, system_prompt = ${agent.systemPrompt},
            is_public = ${agent.isPublic} WHERE id = ${agent.id}`,
          sql`UPDATE beings SET display_name = ${agent.name} WHERE id = ${agent.beingId} AND kind = 'agent'`
        ).pipe(Effect.tap(() => changes.changed(agent.beingId)))
    }))

    /** Deletes the card, and its being once no other card is worn by it. */
    const remove = operation("agents.remove", SqlSchema.void({
      Request: StoredAgent.pick("id", "beingId"),
      execute: ({ id, beingId }) =>
        Effect.zipRight(
          sql`DELETE FROM agents WHERE id = ${id}`,
          sql`DELETE FROM beings WHERE id = ${beingId} AND kind = 'agent' AND NOT EXISTS (SELECT 1 FROM agents WHERE being_id = ${beingId})`
        ).pipe(Effect.tap(() => changes.changed(beingId)))
    }))

    return { findById, listVisibleTo, listOwnedBy, insert, update, remove } as const
  })
}) {}
