/**
 * The omnibar's search: the caller's own projects (title or brief holds every word, matched in
 * SQL), the caller's memories by the twin's words index (never by embedding: no model spend), and
 * the market's active listings. Each group at most SEARCH_GROUP_LIMIT, best first.
 */
import * as Effect from "effect/Effect"
import { ProjectDirectory } from "../../actors/project/contract/project-directory.ts"
import { Market } from "../market/contract/market.ts"
import { MAX_SEARCH_TERMS } from "../market/contract/records.ts"
import { TwinMemories } from "../twin/contract/memories.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { SEARCH_GROUP_LIMIT, type SearchResults } from "./contract/api.ts"
import { spanNamed } from "../../kernel/spans.ts"

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")

export class Search extends Effect.Service<Search>()("host/Search", {
  effect: Effect.gen(function* () {
    const projects = yield* ProjectDirectory
    const memories = yield* TwinMemories
    const market = yield* Market

    const search = (caller: Caller, q: string) =>
      Effect.gen(function* () {
        const words = wordsOf(q)
        const [own, remembered, listed] = yield* Effect.all([
          projects.search(caller, words, SEARCH_GROUP_LIMIT),
          memories.searchWords(caller.beingId, q, SEARCH_GROUP_LIMIT),
          // The market's search wants every term; past its limit the first terms are enough to narrow.
          market.searchListings(caller, {
            q: words.slice(0, MAX_SEARCH_TERMS).join(" "),
            mine: false,
            limit: SEARCH_GROUP_LIMIT,
            offset: 0
          })
        ])
        return {
          projects: own,
          memories: remembered.map(({ id, kind, content }) => ({ id, kind, content })),
          listings: listed.map(({ id, title, kind, priceCredits }) => ({ id, title, kind, priceCredits }))
        } satisfies SearchResults
      }).pipe(spanNamed("search.search"))

    return { search } as const
  })
}) {}
