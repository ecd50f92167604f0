/**
 * The `agents` table, and the rows of `beings` that wear the cards: a being of kind 'agent' is
 * raised for an owner's persona with the first card of it, wears every later card of that persona,
 * and has no email or password, so it can never sign in. Only this
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

    /** Raises a being of kind 'agent' to wear the owner's cards of one persona. */
    const raiseBeing = operation("agents.raiseBeing", SqlSchema.void({
      Request: Schema.Struct({ id: Schema.String, handle: Schema.String, displayName: Schema.String, createdAt: Schema.String }),
      execute: (being) =>
        sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
          VALUES (${being.id}, 'agent', ${being.handle}, ${being.displayName}, ${being.createdAt})`.pipe(
          Effect.tap(() => changes.changed(being.id))
        )
    }))

    /** Writes the card, worn by the being it names (raised or chosen by the service). */
    const insert = operation("agents.insert", SqlSchema.void({
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
    }))

    /**
     * Writes the card's editable fields and the being that wears it (a changed persona moves the
     * card). The being carries the card's name only while it wears no other card: a being wearing
     * several keeps the name it was raised with.
     */
    const update = operation("agents.update", SqlSchema.void({
      Request: Schema.Struct({ ...Editable.fields, beingId: Schema.String }),
      execute: (agent) =>
        Effect.zipRight(
          sql`UPDATE agents SET name = ${agent.name}, role = ${agent.role}, description = ${agent.description},
            avatar = ${agent.avatar}, skills = ${agent.skills}, tier = ${agent.tier}, system_prompt = ${agent.systemPrompt},
            is_public = ${agent.isPublic}, being_id = ${agent.beingId} WHERE id = ${agent.id}`,
          sql`UPDATE beings SET display_name = ${agent.name} WHERE id = ${agent.beingId} AND kind = 'agent'
            AND NOT EXISTS (SELECT 1 FROM agents WHERE being_id = ${agent.beingId} AND id <> ${agent.id})`
        ).pipe(Effect.tap(() => changes.changed(agent.beingId)))
    }))

    /** Deletes an agent being once it wears no card. */
    const releaseBeing = operation("agents.releaseBeing", SqlSchema.void({
      Request: Schema.String,
      execute: (beingId) =>
        sql`DELETE FROM beings WHERE id = ${beingId} AND kind = 'agent' AND NOT EXISTS (SELECT 1 FROM agents WHERE being_id = ${beingId})`.pipe(
          Effect.tap(() => changes.changed(beingId))
        )
    }))

    /** Deletes the card (the service then releases its being). */
    const remove = operation("agents.remove", SqlSchema.void({
      Request: Schema.String,
      execute: (id) => sql`DELETE FROM agents WHERE id = ${id}`
    }))

    return { findById, listVisibleTo, listOwnedBy, raiseBeing, insert, update, releaseBeing, remove } as const
  })
}) {}
