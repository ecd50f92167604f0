/**
 * A citizen's agent listing: an `agent` listing whose refId is a citizen's being id
 * (`citizen-<role>`), listed by the node's owner (the citizens are the node's, so only its
 * owner speaks for them). Buying it delivers a fresh agent carrying the citizen's persona (the
 * first document's buy rules): its name, role, avatar, description, default skills and tier,
 * and a system prompt compiled from the citizen's own soul in agent mode (its story, values,
 * voice and temperament, with the agent's rules instead of the citizen's). The citizen's being
 * is never copied: the agents feature raises the buyer's own being to wear the card.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { citizens, type CitizenSeed } from "../../seeds/citizens.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { Agents } from "../agents/contract/agents.ts"
import { SoulService } from "../souls/contract/soul-service.ts"
import { RefNotFound, RefNotOwned } from "./contract/errors.ts"
import type { ItemGone } from "./ports.ts"

const itemGone: ItemGone = { _tag: "ItemGone" }

/** The seeded citizen a refId names, if any. */
export const citizenOf = (refId: string): CitizenSeed | undefined =>
  citizens.find((citizen) => citizen.beingId === refId)

export const makeCitizenAgents = Effect.gen(function* () {
  const beings = yield* BeingRegistry
  const souls = yield* SoulService
  const agents = yield* Agents

  /** The citizen's being, while it is one. */
  const citizenBeing = (citizen: CitizenSeed) =>
    Effect.map(
      beings.findPublic(citizen.beingId),
      Option.filter((being) => being.kind === "citizen")
    )

  /** Only the node's owner lists a citizen; anyone else is told it is not theirs to sell (a citizen is public). */
  const checkListing = (sellerId: string, citizen: CitizenSeed) =>
    Effect.gen(function* () {
      if (Option.isNone(yield* citizenBeing(citizen))) {
        return yield* new RefNotFound({
          message: "You have no agent with that id.",
          details: { kind: "agent", refId: citizen.beingId }
        })
      }
      const seller = yield* beings.findPublic(sellerId)
      if (Option.isNone(seller) || !seller.value.isOwner) {
        return yield* new RefNotOwned({
          message: "A citizen's agent is the node's owner's to sell.",
          details: { kind: "agent", refId: citizen.beingId }
        })
      }
    })

  /** A fresh agent of the buyer's, carrying the citizen's persona; the listing can no longer deliver once it is gone. */
  const deliver = (citizen: CitizenSeed, buyerId: string) =>
    Effect.gen(function* () {
      const being = yield* citizenBeing(citizen)
      if (Option.isNone(being)) return yield* Effect.fail(itemGone)
      const { persona } = citizen
      const owner = { id: being.value.id, displayName: being.value.displayName }
      const systemPrompt = yield* souls.agentPromptOf(owner, { role: persona.role, job: persona.description })
      // The persona's skills this node registers: a skill no longer registered is left out, not a failed buy.
      const registered = yield* agents.registered
      const agent = yield* agents
        .create(buyerId, {
          name: owner.displayName,
          role: persona.role,
          description: persona.description,
          avatar: persona.avatar,
          skills: persona.skills.filter((skill) => registered.has(skill)),
          tier: persona.tier,
          systemPrompt,
          isPublic: false
        })
        .pipe(Effect.orDie)
      return agent.id
    })

  return { checkListing, deliver } as const
})
