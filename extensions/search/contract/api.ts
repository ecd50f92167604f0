/**
 * GET /api/search: what the omnibar finds for words that do not ask for something to be made.
 * The caller's own projects and memories and the market's active listings, each group at most
 * five, best first. Places are the app's own (the shell matches them by name). No rate class of
 * its own (the global budget): it spends no model budget, memories are matched by words only.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Authentication } from "../../accounts/contract/session.ts"
import { InvalidRequest } from "../../../kernel/contract/errors.ts"
import { ProjectStatus } from "../../../actors/project/contract/records.ts"
import { MemoryKind } from "../../../kernel/contract/memory.ts"
import { ListingKind } from "../../market/contract/records.ts"

/** The most each group answers. */
export const SEARCH_GROUP_LIMIT = 5

export const SearchQuery = Schema.Struct({
  q: Schema.Trim.pipe(
    Schema.minLength(1, { message: () => "some words to search for" }),
    Schema.maxLength(200, { message: () => "at most 200 characters" })
  )
})

export const SearchResults = Schema.Struct({
  projects: Schema.Array(Schema.Struct({ id: Schema.String, title: Schema.String, status: ProjectStatus })),
  memories: Schema.Array(Schema.Struct({ id: Schema.String, kind: MemoryKind, content: Schema.String })),
  listings: Schema.Array(
    Schema.Struct({ id: Schema.String, title: Schema.String, kind: ListingKind, priceCredits: Schema.Int })
  )
}).annotations({ identifier: "SearchResults" })
export type SearchResults = typeof SearchResults.Type

export class SearchApi extends HttpApiGroup.make("search")
  .annotate(
    OpenApi.Description,
    "The omnibar's search across the caller's projects, memories and the market's listings."
  )
  .add(
    HttpApiEndpoint.get("search", "/search")
      .annotate(OpenApi.Summary, "Search the omnibar")
      .annotate(
        OpenApi.Description,
        "The caller's projects and memories (by words only, no model spend) and the market's active listings " +
          "matching `q`, at most 5 each. Any session. Refusals: 400 `invalid_request` (`q` missing, blank or over " +
          "200 characters)."
      )
      .setUrlParams(SearchQuery)
      .addSuccess(SearchResults)
      .addError(InvalidRequest.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
