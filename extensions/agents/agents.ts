/**
 * Agents: create, read, edit and delete role cards. Creating one raises a new being of kind
 * 'agent' to wear it, in the same transaction; no model is called. Skills are checked against the
 * live registry (every registered skill, a plugin's too); an unknown name refuses the whole call.
 * Who may do what: anyone signed in reads public cards and their own; only the card's owner
 * reads a private one, edits or deletes.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { randomBytes, randomInt } from "node:crypto"
import { dieOnSqlError } from "../../kernel/database.ts"
import { Forbidden, InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import { nowIso } from "../../kernel/time.ts"
import type { ModelTier } from "../models/contract/records.ts"
import type { Agent, AgentInput, AgentPatch, AgentSummary } from "./contract/agent.ts"
import { withBaseline } from "./contract/baseline.ts"

interface AgentRow {
  readonly id: string
  readonly ownerId: string
  readonly beingId: string
  readonly name: string
  readonly role: string
  readonly description: string
  readonly avatar: string
  readonly skills: string
  readonly tier: ModelTier
  readonly systemPrompt: string
  readonly isPublic: number
  readonly createdAt: string
}

const newId = () => randomBytes(12).toString("base64url")

const HANDLE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

/** `agent_` and ten random characters: a handle in the humans' alphabet that no person chose. */
const agentHandle = () => `agent_${Array.from({ length: 10 }, () => HANDLE_ALPHABET[randomInt(HANDLE_ALPHABET.length)]).join("")}`

const notFound = (id: string) => new NotFound({ message: "There is no agent with that id.", details: { id } })

export class Agents extends Effect.Service<Agents>()("studio/Agents", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const skills = yield* Skills
    const columns = sql.literal(`id, owner_id AS ownerId, being_id AS beingId, name, role, description, avatar, skills, tier,
      system_prompt AS systemPrompt, is_public AS isPublic, created_at AS createdAt`)

    const registered = Effect.map(skills.list, (defs): ReadonlySet<string> => new Set(defs.map((def) => def.name)))

    const toAgents = (rows: ReadonlyArray<AgentRow>) =>
      Effect.map(registered, (names) =>
        rows.map((row): Agent => ({
          ...row,
          skills: withBaseline(JSON.parse(row.skills) as Array<string>, names),
          isPublic: row.isPublic === 1
        })))

    const requireRegistered = (names: ReadonlyArray<string>) =>
      Effect.flatMap(registered, (known) => {
        const unknown = [...new Set(names.filter((name) => !known.has(name)))]
        return unknown.length === 0 ? Effect.void : Effect.fail(new InvalidRequest({
          error: "unknown_skill",
          message: `No skill named ${unknown.map((name) => `"${name}"`).join(", ")} is registered on this node.`,
          details: { names: unknown }
        }))
      })

    const row = (id: string) =>
      Effect.flatMap(sql<AgentRow>`SELECT ${columns} FROM agents WHERE id = ${id}`, (rows) =>
        rows[0] === undefined ? Effect.fail(notFound(id)) : Effect.succeed(rows[0]))

    /** The card, if the caller may read it. */
    const readable = (callerId: string, id: string) =>
      Effect.flatMap(row(id), (found) =>
        found.ownerId === callerId || found.isPublic === 1
          ? Effect.succeed(found)
          : Effect.fail(new Forbidden({ message: "That agent is private to its owner.", details: { id } })))

    /** The card, if the caller owns it. */
    const owned = (callerId: string, id: string) =>
      Effect.flatMap(row(id), (found) =>
        found.ownerId === callerId
          ? Effect.succeed(found)
          : Effect.fail(new Forbidden({ message: "Only the agent's owner can change it.", details: { id } })))

    const one = (found: AgentRow) => Effect.map(toAgents([found]), (agents) => agents[0])

    /** The caller's own cards and everyone's public ones, newest first. */
    const list = (callerId: string) =>
      sql<AgentRow>`SELECT ${columns} FROM agents WHERE owner_id = ${callerId} OR is_public = 1
        ORDER BY created_at DESC, id`.pipe(
        Effect.flatMap(toAgents),
        Effect.map((agents) =>
          agents.map(({ id, ownerId, name, role, description, avatar, skills, tier }): AgentSummary => ({
            id, ownerId, name, role, description, avatar, skills, tier
          }))),
        dieOnSqlError,
        Effect.withSpan("Agents.list")
      )

    const get = (callerId: string, id: string) =>
      Effect.flatMap(readable(callerId, id), one).pipe(dieOnSqlError, Effect.withSpan("Agents.get"))

    /** Every card the owner saved, for team assembly. */
    const ownedBy = (ownerId: string) =>
      sql<AgentRow>`SELECT ${columns} FROM agents WHERE owner_id = ${ownerId} ORDER BY created_at DESC, id`.pipe(
        Effect.flatMap(toAgents),
        dieOnSqlError
      )

    /** Raises the being that wears the card and writes the card, in one transaction. */
    const create = (callerId: string, input: AgentInput) =>
      Effect.gen(function* () {
        yield* requireRegistered(input.skills)
        const id = newId()
        const beingId = newId()
        const now = yield* nowIso
        yield* sql.withTransaction(Effect.gen(function* () {
          yield* sql`INSERT INTO beings (id, kind, handle, display_name, created_at)
            VALUES (${beingId}, 'agent', ${agentHandle()}, ${input.name}, ${now})`
          yield* sql`INSERT INTO agents (id, owner_id, being_id, name, role, description, avatar, skills, tier, system_prompt, is_public, created_at)
            VALUES (${id}, ${callerId}, ${beingId}, ${input.name}, ${input.role}, ${input.description}, ${input.avatar},
              ${JSON.stringify([...new Set(input.skills)])}, ${input.tier}, ${input.systemPrompt}, ${input.isPublic ? 1 : 0}, ${now})`
        }))
        return yield* Effect.flatMap(row(id), one)
      }).pipe(dieOnSqlError, Effect.withSpan("Agents.create"))

    const update = (callerId: string, id: string, patch: AgentPatch) =>
      Effect.gen(function* () {
        const found = yield* owned(callerId, id)
        if (patch.skills !== undefined) yield* requireRegistered(patch.skills)
        const next = {
          name: patch.name ?? found.name,
          role: patch.role ?? found.role,
          description: patch.description ?? found.description,
          avatar: patch.avatar ?? found.avatar,
          skills: patch.skills === undefined ? found.skills : JSON.stringify([...new Set(patch.skills)]),
          tier: patch.tier ?? found.tier,
          systemPrompt: patch.systemPrompt ?? found.systemPrompt,
          isPublic: patch.isPublic === undefined ? found.isPublic : patch.isPublic ? 1 : 0
        }
        yield* sql.withTransaction(Effect.gen(function* () {
          yield* sql`UPDATE agents SET name = ${next.name}, role = ${next.role}, description = ${next.description},
            avatar = ${next.avatar}, skills = ${next.skills}, tier = ${next.tier}, system_prompt = ${next.systemPrompt},
            is_public = ${next.isPublic} WHERE id = ${id}`
          // The being was raised for this card and carries its name.
          if (next.name !== found.name) yield* sql`UPDATE beings SET display_name = ${next.name} WHERE id = ${found.beingId} AND kind = 'agent'`
        }))
        return yield* Effect.flatMap(row(id), one)
      }).pipe(dieOnSqlError, Effect.withSpan("Agents.update"))

    /** Deletes the card, and its being once no other card is worn by it. */
    const remove = (callerId: string, id: string) =>
      Effect.gen(function* () {
        const found = yield* owned(callerId, id)
        yield* sql.withTransaction(Effect.gen(function* () {
          yield* sql`DELETE FROM agents WHERE id = ${id}`
          yield* sql`DELETE FROM beings WHERE id = ${found.beingId} AND kind = 'agent'
            AND NOT EXISTS (SELECT 1 FROM agents WHERE being_id = ${found.beingId})`
        }))
      }).pipe(dieOnSqlError, Effect.withSpan("Agents.remove"))

    return { list, get, ownedBy, create, update, remove, registered } as const
  })
}) {}
