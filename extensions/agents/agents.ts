/**
 * Agents: create, read, edit and delete role cards. Creating one raises a new being of kind
 * 'agent' to wear it, in the same transaction; no model is called. Skills are checked against the
 * live registry (every registered skill, a plugin's too); an unknown name refuses the whole call.
 * Who may do what: anyone signed in reads public cards and their own; only the card's owner
 * reads a private one, edits or deletes.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes, randomInt } from "node:crypto"
import { Forbidden, InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { AgentsRepository, type StoredAgent } from "./agents-repository.ts"
import type { Agent, AgentInput, AgentPatch, AgentSummary } from "./contract/agent.ts"
import { withBaseline } from "./contract/baseline.ts"

const newId = () => randomBytes(12).toString("base64url")

const HANDLE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

/** `agent_` and ten random characters: a handle in the humans' alphabet that no person chose. */
const agentHandle = () => `agent_${Array.from({ length: 10 }, () => HANDLE_ALPHABET[randomInt(HANDLE_ALPHABET.length)]).join("")}`

const notFound = (id: string) => new NotFound({ message: "There is no agent with that id.", details: { id } })

export class Agents extends Effect.Service<Agents>()("studio/Agents", {
  dependencies: [AgentsRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* AgentsRepository
    const skills = yield* Skills

    const registered = Effect.map(skills.list, (defs): ReadonlySet<string> => new Set(defs.map((def) => def.name)))

    const toAgents = (stored: ReadonlyArray<StoredAgent>) =>
      Effect.map(registered, (names) => stored.map((agent): Agent => ({ ...agent, skills: withBaseline(agent.skills, names) })))

    const requireRegistered = (names: ReadonlyArray<string>) =>
      Effect.flatMap(registered, (known) => {
        const unknown = [...new Set(names.filter((name) => !known.has(name)))]
        return unknown.length === 0 ? Effect.void : Effect.fail(new InvalidRequest({
          error: "unknown_skill",
          message: `No skill named ${unknown.map((name) => `"${name}"`).join(", ")} is registered on this node.`,
          details: { names: unknown }
        }))
      })

    const stored = (id: string) =>
      Effect.flatMap(repository.findById(id), Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed }))

    /** The card, if the caller may read it. */
    const readable = (callerId: string, id: string) =>
      Effect.flatMap(stored(id), (found) =>
        found.ownerId === callerId || found.isPublic
          ? Effect.succeed(found)
          : Effect.fail(new Forbidden({ message: "That agent is private to its owner.", details: { id } })))

    /** The card, if the caller owns it. */
    const owned = (callerId: string, id: string) =>
      Effect.flatMap(stored(id), (found) =>
        found.ownerId === callerId
          ? Effect.succeed(found)
          : Effect.fail(new Forbidden({ message: "Only the agent's owner can change it.", details: { id } })))

    const one = (found: StoredAgent) => Effect.map(toAgents([found]), (agents) => agents[0])

    /** The caller's own cards and everyone's public ones, newest first. */
    const list = (callerId: string) =>
      repository.listVisibleTo(callerId).pipe(
        Effect.flatMap(toAgents),
        Effect.map((agents) =>
          agents.map(({ id, ownerId, name, role, description, avatar, skills, tier }): AgentSummary => ({
            id, ownerId, name, role, description, avatar, skills, tier
          }))),
        Effect.withSpan("agents.list")
      )

    const get = (callerId: string, id: string) => Effect.flatMap(readable(callerId, id), one).pipe(Effect.withSpan("agents.get"))

    /** Every card the owner saved, for team assembly. */
    const ownedBy = (ownerId: string) => Effect.flatMap(repository.listOwnedBy(ownerId), toAgents).pipe(Effect.withSpan("agents.ownedBy"))

    /** Raises the being that wears the card and writes the card, in one transaction. */
    const create = (callerId: string, input: AgentInput) =>
      Effect.gen(function* () {
        yield* requireRegistered(input.skills)
        const agent: StoredAgent = {
          ...input,
          id: newId(),
          ownerId: callerId,
          beingId: newId(),
          skills: [...new Set(input.skills)],
          createdAt: yield* nowIso
        }
        yield* sql.withTransaction(repository.insert({ agent, handle: agentHandle() })).pipe(orDieOnStorageFault)
        return yield* one(agent)
      }).pipe(Effect.withSpan("agents.create"))

    const update = (callerId: string, id: string, patch: AgentPatch) =>
      Effect.gen(function* () {
        const found = yield* owned(callerId, id)
        if (patch.skills !== undefined) yield* requireRegistered(patch.skills)
        const next: StoredAgent = {
          ...found,
          name: patch.name ?? found.name,
          role: patch.role ?? found.role,
          description: patch.description ?? found.description,
          avatar: patch.avatar ?? found.avatar,
          skills: patch.skills === undefined ? found.skills : [...new Set(patch.skills)],
          tier: patch.tier ?? found.tier,
          systemPrompt: patch.systemPrompt ?? found.systemPrompt,
          isPublic: patch.isPublic ?? found.isPublic
        }
        yield* sql.withTransaction(repository.update(next)).pipe(orDieOnStorageFault)
        return yield* one(next)
      }).pipe(Effect.withSpan("agents.update"))

    /** Deletes the card, and its being once no other card is worn by it. */
    const remove = (callerId: string, id: string) =>
      Effect.flatMap(owned(callerId, id), (found) => sql.withTransaction(repository.remove(found)).pipe(orDieOnStorageFault)).pipe(
        Effect.withSpan("agents.remove")
      )

    return { list, get, ownedBy, create, update, remove, registered } as const
  })
}) {}
