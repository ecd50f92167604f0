/**
 * A page of a list that grows with use: at most `limit` items (1..200, default 50) after skipping
 * `offset` (0..1,000,000), in the list's own order. The answer stays the list the contract names
 * (an array); a client asks for the next page with `offset` grown by what it has, and knows it has
 * everything when a page comes back shorter than its `limit` (docs/decisions.md, "Paging").
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

/** The most items one page holds. */
export const PAGE_MAX = 200

/** How many items a page holds when the client does not say. */
export const PAGE_DEFAULT = 50

/** The furthest a page may start: past it a list is searched, not paged. */
export const OFFSET_MAX = 1_000_000

export const PageLimit = Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, PAGE_MAX))

export const PageOffset = Schema.NumberFromString.pipe(Schema.int(), Schema.between(0, OFFSET_MAX))

export const PageParams = Schema.Struct({
  limit: Schema.optionalWith(PageLimit, { default: () => PAGE_DEFAULT }),
  offset: Schema.optionalWith(PageOffset, { default: () => 0 })
})

/** Which page: what a handler passes to its store. */
export type Page = typeof PageParams.Type

/**
 * For a list the documents answer whole ("every project of the caller"): whole unless the client
 * gives a `limit`, then paged as above. The web app always gives one.
 */
export const WholeUnlessPaged = Schema.Struct({
  limit: Schema.optional(PageLimit),
  offset: Schema.optional(PageOffset)
})

export type WholeUnlessPaged = typeof WholeUnlessPaged.Type

/**
 * A client's read of the first `shown` items of a paged list (Infinity: all of it), in pages of at
 * most PAGE_MAX until they are read or a page comes back short.
 */
export const readUpTo = <A, E>(shown: number, loadPage: (page: Page) => Effect.Effect<ReadonlyArray<A>, E>) =>
  Effect.gen(function* () {
    const items: Array<A> = []
    for (;;) {
      const limit = Math.min(PAGE_MAX, shown - items.length)
      const page = yield* loadPage({ limit, offset: items.length })
      items.push(...page)
      // A page shorter than asked is the last.
      if (page.length < limit || items.length >= shown) return items
    }
  })
