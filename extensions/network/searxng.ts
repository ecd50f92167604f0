/**
 * The web.search provider: a SearXNG instance (self-hostable, documented JSON API:
 * GET <SEARCH_URL>/search?q=...&format=json). SearXNG answers JSON only when its settings.yml
 * lists `json` under `search.formats`; otherwise it answers 403, which is said plainly.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { OutboundRequest, OutboundResponse, SearchHit, SearchOptions } from "../../kernel/extensions/network.ts"
import { OutboundError, type Stoppable } from "../../kernel/http/outbound.ts"

const searchTimeoutMs = 15_000
const maxAnswerBytes = 4 * 1024 * 1024

const SearxngAnswer = Schema.Struct({
  results: Schema.Array(
    Schema.Struct({
      url: Schema.String,
      title: Schema.optional(Schema.String),
      content: Schema.optional(Schema.NullOr(Schema.String))
    })
  )
})
const decodeAnswer = Schema.decodeUnknownEither(Schema.parseJson(SearxngAnswer))

export const searxngSearch =
  (baseUrl: string, get: (request: Stoppable<OutboundRequest>) => Promise<OutboundResponse>) =>
  async (query: string, options: Stoppable<SearchOptions>): Promise<ReadonlyArray<SearchHit>> => {
    const url = new URL("search", baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`)
    url.searchParams.set("q", query)
    url.searchParams.set("format", "json")
    const response = await get({
      url: url.href,
      headers: { accept: "application/json" },
      maxBytes: maxAnswerBytes,
      timeoutMs: searchTimeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal })
    })
    if (response.status !== 200) {
      throw new OutboundError(
        `The search engine answered HTTP ${response.status}` +
          (response.status === 403
            ? " (SearXNG answers JSON only when settings.yml lists json under search.formats)."
            : ".")
      )
    }
    const answer = decodeAnswer(Buffer.from(response.body).toString("utf8"))
    if (Either.isLeft(answer)) {
      throw new OutboundError(
        `The search engine's answer is not SearXNG's JSON: ${ParseResult.TreeFormatter.formatErrorSync(answer.left).split("\n")[0]}`
      )
    }
    return answer.right.results.slice(0, options.maxResults).map(
      (result): SearchHit => ({
        title: result.title ?? result.url,
        url: result.url,
        snippet: result.content ?? ""
      })
    )
  }
