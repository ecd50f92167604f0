/**
 * Agents: create, read, edit and delete role cards. A card is worn by the caller's being of kind
 * 'agent' for the card's persona (the built-in persona its role falls to): one being per (owner,
 * persona) wears several cards, raised with the first card of it, in the same transaction, and
 * deleted with the last; no model is called. A body never names the being. Skills are checked against the
 * live registry (every registered skill, a plugin's too); an unknown name refuses the whole call.
 * Who may do what: anyone signed in reads public cards and their own; only the card's owner
 * reads a private one, edits or deletes.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes, randomInt } from "node:crypto"
import { Skills } from "../../kernel/extensions/skills.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import { AgentsRepository, type StoredAgent } from "./agents-repository.ts"
import type { Agent, AgentInput, AgentPatch, AgentSummary } from "./contract/agent.ts"
import { AgentNotFound, AgentNotYours, AgentPrivate, AgentSkillUnknown } from "./contract/errors.ts"
import { withBaseline } from "./contract/baseline.ts"
import { Agents, type AgentsShape } from "./contract/agents.ts"
import { AgentBeings } from "./ports.ts"
import { personaFor } from "../../seeds/personas.ts"
import { spanNamed } from "../../kernel/spans.ts"

const newId = () => randomBytes(12).toString("base64url")

const HANDLE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"

/** `agent_` and ten random characters: a handle in the humans' alphabet that no person chose. */
const agentHandle = () =>
  `agent_${Array.from({ length: 10 }, () => HANDLE_ALPHABET[randomInt(HANDLE_ALPHABET.length)]).join("")}`

/** The built-in persona a card's role falls to (seeds/personas.ts): the owner's cards of one persona share a being. */
const personaOf = (role: string) => personaFor(role).role

const notFound = (id: string) => new AgentNotFound({ message: "There is no agent with that id.", details: { id } })

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repository = yield* AgentsRepository
  const beings = yield* AgentBeings
  const skills = yield* Skills

  const registered = Effect.map(skills.list, (defs): ReadonlySet<string> => new Set(defs.map((def) => def.name)))

  const toAgents = (stored: ReadonlyArray<StoredAgent>) =>
    Effect.map(registered, (names) =>
      stored.map((agent): Agent => ({ ...agent, skills: withBaseline(agent.skills, names) }))
    )

  const requireRegistered = (names: ReadonlyArray<string>) =>
    Effect.flatMap(registered, (known) => {
      const unknown = [...new Set(names.filter((name) => !known.has(name)))]
      return unknown.length === 0
        ? Effect.void
        : Effect.fail(
            new AgentSkillUnknown({
              message: `No skill named ${unknown.map((name) => `"${name}"`).join(", ")} is registered on this node.`,
              details: { names: unknown }
            })
          )
    })

  const stored = (id: string) =>
    Effect.flatMap(
      repository.findById(id),
      Option.match({ onNone: () => Effect.fail(notFound(id)), onSome: Effect.succeed })
    )

  /** The card, if the caller may read it. */
  const readable = (callerId: string, id: string) =>
    Effect.flatMap(stored(id), (found) =>
      found.ownerId === callerId || found.isPublic
        ? Effect.succeed(found)
        : Effect.fail(new AgentPrivate({ message: "That agent is private to its owner.", details: { id } }))
    )

  /** The card, if the caller owns it. */
  const owned = (callerId: string, id: string) =>
    Effect.flatMap(stored(id), (found) =>
      found.ownerId === callerId
        ? Effect.succeed(found)
        : Effect.fail(new AgentNotYours({ message: "Only the agent's owner can change it.", details: { id } }))
    )

  const one = (found: StoredAgent) => Effect.map(toAgents([found]), (agents) => agents[0])

  /** The caller's own cards and everyone's public ones, newest first. */
  const list = (callerId: string) =>
    repository.listVisibleTo(callerId).pipe(
      Effect.flatMap(toAgents),
      Effect.map((agents) =>
        agents.map(
          ({ id, ownerId, name, role, description, avatar, skills, tier }): AgentSummary => ({
            id,
            ownerId,
            name,
            role,
            description,
            avatar,
            skills,
            tier
          })
        )
      ),
      spanNamed("agents.list")
    )

  const get = (callerId: string, id: string) =>
    Effect.flatMap(readable(callerId, id), one).pipe(spanNamed("agents.get"))

  /** Every card the owner saved, for team assembly. */
  const ownedBy = (ownerId: string) =>
    Effect.flatMap(repository.listOwnedBy(ownerId), toAgents).pipe(spanNamed("agents.ownedBy"))

  /**
   * The being that wears the owner's cards of `persona` (the oldest such card's, when rows older
   * than the rule left several), else one raised now named after the card. Cards are the owner's
   * own, so another's being is never reached. Runs inside the caller's transaction, so two saves
   * at once cannot raise two beings.
   */
  const wearerFor = (ownerId: string, persona: string, name: string, createdAt: string, exceptId?: string) =>
    Effect.gen(function* () {
      const own = yield* repository.listOwnedBy(ownerId)
      const worn = own.filter((card) => card.id !== exceptId && personaOf(card.role) === persona).at(-1)
      if (worn !== undefined) return worn.beingId
      const id = newId()
      yield* beings.raise({ id, handle: agentHandle(), displayName: name, createdAt })
      return id
    })

  /** Deletes an agent being once it wears no card. */
  const releaseIfBare = (beingId: string) =>
    Effect.flatMap(repository.wornBy(beingId), (cards) => (cards.length === 0 ? beings.release(beingId) : Effect.void))

  /** Writes the card, worn by the caller's being of its persona (raised if none), in one transaction. */
  const create = (callerId: string, input: AgentInput) =>
    Effect.gen(function* () {
      yield* requireRegistered(input.skills)
      const createdAt = yield* nowIso
      const agent = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const beingId = yield* wearerFor(callerId, personaOf(input.role), input.name, createdAt)
            const agent: StoredAgent = {
              ...input,
              id: newId(),
              ownerId: callerId,
              beingId,
              skills: [...new Set(input.skills)],
              createdAt
            }
            yield* repository.insert(agent)
            return agent
          })
        )
        .pipe(orDieOnStorageFault)
      return yield* one(agent)
    }).pipe(spanNamed("agents.create"))

  const update = (callerId: string, id: string, patch: AgentPatch) =>
    Effect.gen(function* () {
      const found = yield* owned(callerId, id)
      if (patch.skills !== undefined) yield* requireRegistered(patch.skills)
      const edited: StoredAgent = {
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
      const createdAt = yield* nowIso
      const next = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            // A role of another persona moves the card to the owner's being of that persona.
            const persona = personaOf(edited.role)
            const beingId =
              persona === personaOf(found.role)
                ? found.beingId
                : yield* wearerFor(callerId, persona, edited.name, createdAt, found.id)
            const next = { ...edited, beingId }
            yield* repository.update(next)
            // The being carries the card's name only while it wears no other: one wearing several keeps the name it was
            // raised with.
            if ((yield* repository.wornBy(beingId)).every((card) => card.id === next.id))
              yield* beings.rename({ id: beingId, displayName: next.name })
            if (beingId !== found.beingId) yield* releaseIfBare(found.beingId)
            return next
          })
        )
        .pipe(orDieOnStorageFault)
      return yield* one(next)
    }).pipe(spanNamed("agents.update"))

  /** Deletes the card, and its being once it wears no other card. */
  const remove = (callerId: string, id: string) =>
    Effect.flatMap(owned(callerId, id), (found) =>
      sql
        .withTransaction(Effect.zipRight(repository.remove(found.id), releaseIfBare(found.beingId)))
        .pipe(orDieOnStorageFault)
    ).pipe(spanNamed("agents.remove"))

  return { list, get, ownedBy, create, update, remove, registered, stored: repository.findById } satisfies AgentsShape
})

/** The agents feature: the service over its repository; it needs the Skills runtime and the AgentBeings port. */
export const AgentsLive = Layer.effect(Agents, make).pipe(Layer.provide(AgentsRepository.Default))
