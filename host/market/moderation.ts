/**
 * Moderation's port into the market (extensions/souls/contract/listing-moderation.ts): the owner
 * pauses a listing (out of search and buying) or resumes it, whoever sells it.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ListingsRepository } from "../../extensions/market/repositories/listings-repository.ts"
import { ListingModeration } from "../../extensions/souls/contract/listing-moderation.ts"
import { NotFound } from "../../kernel/contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"

export const ListingModerationLive = Layer.effect(
  ListingModeration,
  Effect.map(ListingsRepository, (listings) => {
    const setTo = (status: "paused" | "active") => (id: string) =>
      Effect.gen(function* () {
        const found = yield* listings.find(id)
        if (Option.isNone(found)) return yield* new NotFound({ message: "There is no listing with that id.", details: { id } })
        yield* listings.setStatus({ id, status, at: yield* nowIso })
        return { id, status }
      }).pipe(Effect.withSpan(`market.moderation.${status}`))
    return { pause: setTo("paused"), resume: setTo("active") }
  })
).pipe(Layer.provide(ListingsRepository.Default))
