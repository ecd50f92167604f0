/**
 * Moderation's port into the market (extensions/souls/contract/listing-moderation.ts): the owner
 * takes a listing down (out of search and buying, whatever its seller sets) or restores it,
 * whoever sells it.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ListingsRepository } from "./repositories/listings-repository.ts"
import { ListingModeration } from "../souls/contract/listing-moderation.ts"
import { NoListingToModerate } from "./contract/errors.ts"
import type { Page } from "../../kernel/contract/page.ts"
import { nowIso } from "../../kernel/time.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const ListingModerationLive = Layer.effect(
  ListingModeration,
  Effect.map(ListingsRepository, (listings) => {
    const mark = (id: string, by: string | null) =>
      Effect.gen(function* () {
        const at = by === null ? null : yield* nowIso
        const written = yield* listings.setModerated({ id, at, by })
        if (Option.isNone(written))
          return yield* new NoListingToModerate({ message: "There is no listing with that id.", details: { id } })
        return written.value
      })
    return {
      list: (page: Page) => listings.recentAll(page).pipe(spanNamed("market.moderation.list")),
      pause: (moderatorId: string, id: string) => mark(id, moderatorId).pipe(spanNamed("market.moderation.pause")),
      resume: (id: string) => mark(id, null).pipe(spanNamed("market.moderation.resume"))
    }
  })
).pipe(Layer.provide(ListingsRepository.Default))
