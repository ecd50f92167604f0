/** GET /api/search, for the session's being only. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { SearchApi } from "./contract/api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { Search } from "./search.ts"

const SearchHandlers = HttpApiBuilder.group(apiOf(SearchApi), "search", (handlers) =>
  Effect.gen(function* () {
    const search = yield* Search
    return handlers.handle("search", ({ urlParams }) =>
      Effect.flatMap(CurrentSession, (who) => search.search(who, urlParams.q))
    )
  })
)

/** The search route over its service (the market, the projects and the twin it reads come from the node). */
export const searchRoutes = SearchHandlers.pipe(Layer.provide(Search.Default))
