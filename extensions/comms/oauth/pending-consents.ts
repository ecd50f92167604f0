/**
 * The state + PKCE half of an OAuth 2.0 consent, for every provider that connects through one
 * (mail_a and plugin providers alike). A pending consent is kept server-side, in the database
 * (./pending-consents-repository.ts: the provider's redirect may come back to another process of
 * the node than the one that sent the person away), under a random `state`, with its PKCE
 * verifier, the being that asked and the provider. `take` hands it back exactly once, across
 * every process: unknown, used, expired, another provider's or another being's is refused; `codeOf`
 * reads the code from the provider's answer, or refuses a declined or empty one.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Caller } from "../../accounts/contract/session.ts"
import { ConsentCodeMissing, ConsentDeclined, ConsentNotYours, ConsentStateRefused } from "../contract/errors.ts"
import { randomToken } from "./protocol.ts"
import { PendingConsentsRepository } from "./pending-consents-repository.ts"

/** How long a consent may take, from the click to the provider's redirect back. */
export const consentLifetimeMs = 10 * 60_000

/**
 * Pending consents one being may hold: a newer one replaces its oldest, so clicking Connect again and again holds no
 * more memory.
 */
const pendingPerBeing = 5

export interface CallbackQuery {
  readonly code?: string | undefined
  readonly state?: string | undefined
  /** Set by the provider when the person declined (`access_denied`) or the request was wrong. */
  readonly error?: string | undefined
}

/**
 * The code of a consent's answer, or the refusal a person reads when `who` (the provider, as they
 * know it) declined or sent none; `again` is what they do to retry.
 */
export const codeOf = (query: CallbackQuery, who: string, again: string) => {
  if (query.error !== undefined)
    return Effect.fail(
      new ConsentDeclined({
        message: `${who} did not grant access (${query.error.slice(0, 60)}). Nothing was connected; ${again} to retry.`
      })
    )
  if (query.code === undefined || query.code === "")
    return Effect.fail(
      new ConsentCodeMissing({ message: `${who}'s answer has no code. Nothing was connected; ${again}.` })
    )
  return Effect.succeed(query.code)
}

const stateRefused = (why: string, again: string) =>
  new ConsentStateRefused({
    message: `This consent answer cannot be used: ${why} Nothing was connected; start again with ${again}.`
  })

const iso = (millis: number) => new Date(millis).toISOString()

/** A store of pending consents; `again` names what a person clicks to retry, for the refusals. */
export const makePendingConsents = (again: string) =>
  Effect.map(PendingConsentsRepository, (repository) => {
    /** A new state and verifier for the being's consent to `provider`. */
    const open = (caller: Caller, provider: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        yield* repository.trim({ beingId: caller.beingId, keep: pendingPerBeing - 1, now: iso(now) })
        const state = randomToken()
        const verifier = randomToken()
        yield* repository.insert({
          state,
          beingId: caller.beingId,
          provider,
          verifier,
          expiresAt: iso(now + consentLifetimeMs)
        })
        return { state, verifier }
      })

    /** The pending consent of `state`, taken out whatever comes next: a state is good for one answer. */
    const take = (caller: Caller, provider: string, state: string | undefined) =>
      Effect.gen(function* () {
        const found = state === undefined ? Option.none() : yield* repository.take({ state })
        if (Option.isNone(found) || found.value.provider !== provider)
          return yield* stateRefused("it is unknown or was already used.", again)
        const consent = found.value
        if (consent.expiresAt <= iso(yield* Clock.currentTimeMillis))
          return yield* stateRefused(`it is older than ${consentLifetimeMs / 60_000} minutes.`, again)
        if (consent.beingId !== caller.beingId) {
          return yield* new ConsentNotYours({
            message: "This consent was started by someone else signed in to this node. Nothing was connected."
          })
        }
        return consent
      })

    return { open, take } as const
  })
