/**
 * Beings as others see them: the list (each online or not, a citizen with its persona), one being with its soul (the
 * prompt only for itself and
 * the owner), a summary, presence from the live channel and what makes a citizen one; and the
 * caller's own name and handle. Every write to `beings` goes through its repository, which tells
 * the session cache (extensions/accounts/contract/being-changes.ts), so /api/auth/me answers the change at once.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UnknownBeing } from "../contract/errors.ts"
import type { BeingDetail, BeingPatch, ListedBeing } from "../contract/records.ts"
import { CitizensRepository } from "../repositories/citizens-repository.ts"
import { soulFor, Souls, type SoulOwner } from "../souls.ts"
import type { Caller } from "../../accounts/contract/session.ts"
import { BeingRegistry } from "../../accounts/contract/being-registry.ts"
import { Presence } from "../../../actors/being/contract/presence.ts"
import { spanNamed } from "../../../kernel/spans.ts"

export class Beings extends Effect.Service<Beings>()("beings/Beings", {
  dependencies: [CitizensRepository.Default, Souls.Default],
  effect: Effect.gen(function* () {
    const repository = yield* BeingRegistry
    const citizens = yield* CitizensRepository
    const souls = yield* Souls
    // Presence from the database, not this process's own sockets: a tab on another process of a
    // cluster counts too (docs/decisions.md, "State in a cluster").
    const presence = yield* Presence

    /** Every being, with whether it is online now and, for a citizen, its persona. */
    const list = Effect.gen(function* () {
      const all = yield* repository.listPublic
      const online = yield* presence.onlineIds
      const personas = new Map((yield* citizens.list()).map(({ beingId, ...citizen }) => [beingId, citizen]))
      return all.map((being): ListedBeing => {
        const citizen = personas.get(being.id)
        return { ...being, online: online.has(being.id), ...(citizen === undefined ? {} : { citizen }) }
      })
    }).pipe(spanNamed("beings.list"))

    /** The being a soul belongs to, or 404. */
    const subject = (id: string) =>
      Effect.flatMap(
        repository.findPublic(id),
        Option.match({
          onNone: () => Effect.fail(new UnknownBeing({ message: "There is no being with that id.", details: { id } })),
          onSome: (being): Effect.Effect<SoulOwner & { readonly kind: string }> => Effect.succeed(being)
        })
      )

    /** Whether the caller reads the being's prompt: itself or the owner. */
    const readsPrompt = (caller: Caller, beingId: string) => caller.isOwner || caller.beingId === beingId

    const get = (caller: Caller, id: string) =>
      Effect.gen(function* () {
        const being = yield* repository.findPublic(id)
        if (Option.isNone(being))
          return yield* Effect.fail(new UnknownBeing({ message: "There is no being with that id.", details: { id } }))
        const soul = yield* souls.current(being.value)
        const online = yield* presence.isOnline(id)
        const citizen = yield* citizens.find(id)
        const detail: BeingDetail = {
          ...being.value,
          soul: soulFor(soul, readsPrompt(caller, id)),
          summary: `${soul.purpose} Feeling ${soul.mood.label}.`.trim(),
          online,
          ...Option.match(citizen, {
            onNone: () => ({}),
            onSome: ({ role, avatar, description }) => ({ citizen: { role, avatar, description } })
          })
        }
        return detail
      }).pipe(spanNamed("beings.get"))

    /** One's own name and handle; a handle someone else holds is a 409. */
    const patchMe = (caller: Caller, patch: BeingPatch) =>
      repository.updateProfile(caller.beingId, patch).pipe(spanNamed("beings.patchMe"))

    return { list, subject, readsPrompt, get, patchMe }
  })
}) {}
