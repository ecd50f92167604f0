/**
 * web.fetch (its schema is ours): one page as readable text. HTML is turned into text by
 * html-to-text (headings keep their case, images are dropped, links keep their address); other
 * text types come back as they are; binary answers are refused. Fetching leaves the host, so the
 * request goes through the `network` adapter and its policy (http/https only, private addresses
 * refused unless the owner allows them, the byte cap and deadline given here).
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as HtmlToText from "html-to-text"
import { lazyModule } from "../../kernel/lazy-module.ts"
import type { NetworkAdapter, OutboundResponse } from "../../kernel/extensions/network.ts"
import { defineSkill, refusedAsSkillFailure, SkillFailure, withDefault } from "../../kernel/extensions/skill.ts"

/** Loaded at the first HTML read: an idle node does not hold it. */
const htmlToText = lazyModule<typeof HtmlToText>("html-to-text")

const maxFetchBytes = 5 * 1024 * 1024
const maxFetchTimeoutMs = 60_000

const Input = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)).annotations({
    description: "An http or https address."
  }),
  maxBytes: withDefault(Schema.Int.pipe(Schema.between(1, maxFetchBytes)), 1024 * 1024),
  timeoutMs: withDefault(Schema.Int.pipe(Schema.between(100, maxFetchTimeoutMs)), 15_000)
})

const Output = Schema.Struct({
  url: Schema.String.annotations({ description: "Where the page came from, after redirects." }),
  status: Schema.Int,
  contentType: Schema.String,
  title: Schema.String,
  text: Schema.String,
  truncated: Schema.Boolean.annotations({ description: "The page was longer than maxBytes and was cut there." }),
  bytes: Schema.Int.annotations({ description: "Bytes of the (decompressed) body read." })
})

const htmlTypes = new Set(["text/html", "application/xhtml+xml"])
const textTypes = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ld+json",
  "application/rss+xml",
  "application/atom+xml"
])

const textual = (mediaType: string) =>
  mediaType === "" ||
  mediaType.startsWith("text/") ||
  htmlTypes.has(mediaType) ||
  textTypes.has(mediaType) ||
  mediaType.endsWith("+json") ||
  mediaType.endsWith("+xml")

const decodeText = (body: Uint8Array, charset: string | undefined) => {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body)
  } catch {
    return new TextDecoder("utf-8").decode(body)
  }
}

const headings = ["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } }))

const readable = (html: string) =>
  htmlToText()
    .convert(html, {
      wordwrap: false,
      selectors: [
        ...headings,
        { selector: "img", format: "skip" },
        { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
        { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } }
      ]
    })
    .trim()

const titleOf = (html: string) => {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]
  return title === undefined ? "" : htmlToText().convert(title, { wordwrap: false }).replace(/\s+/g, " ").trim()
}

export type Page = typeof Output.Type

/** One page as readable text through the network adapter; web.research reads its sources with it too. */
export const readPage = (
  network: NetworkAdapter,
  request: { readonly url: string; readonly maxBytes: number; readonly timeoutMs: number }
): Effect.Effect<Page, SkillFailure> =>
  network
    .get({
      url: request.url,
      headers: { accept: "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5" },
      maxBytes: request.maxBytes,
      timeoutMs: request.timeoutMs
    })
    .pipe(
      refusedAsSkillFailure,
      Effect.flatMap((response) =>
        Effect.try({
          try: () => pageOf(response),
          catch: (error) =>
            error instanceof SkillFailure ? error : new SkillFailure({ message: (error as Error).message })
        })
      )
    )

const pageOf = (response: OutboundResponse): Page => {
  const contentType = response.headers["content-type"] ?? ""
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase()
  if (!textual(mediaType)) {
    throw new SkillFailure({
      message: `web.fetch reads text; ${response.url} answered ${mediaType} (${response.body.length} bytes).`
    })
  }
  const raw = decodeText(response.body, /charset="?([^";]+)/i.exec(contentType)?.[1]?.trim())
  const html = htmlTypes.has(mediaType) || (mediaType === "" && /<html[\s>]/i.test(raw))
  return {
    url: response.url,
    status: response.status,
    contentType,
    title: html ? titleOf(raw) : "",
    text: html ? readable(raw) : raw,
    truncated: response.truncated,
    bytes: response.body.length
  }
}

export const fetchPage = defineSkill({
  description: "Fetch a web page (http or https) and answer its title and readable text, within a size and time limit.",
  input: Input,
  output: Output,
  timeoutMs: maxFetchTimeoutMs + 5_000,
  run: (input, context) => {
    const network = context.adapters.network
    if (network === undefined) return new SkillFailure({ message: "network is not wired on this node yet." })
    return readPage(network, input)
  }
})
