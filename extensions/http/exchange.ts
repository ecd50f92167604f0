/**
 * What http.request and http.json share: the request's fields and limits, and one exchange
 * through the `network` adapter, so both follow the node's address policy (WEB_ALLOW_PRIVATE),
 * checked again on every redirect hop.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { NetworkAdapter, OutboundResponse } from "../../kernel/extensions/network.ts"
import {
  refusedAsSkillFailure,
  SkillFailure,
  withDefault,
  type SkillRunContext
} from "../../kernel/extensions/skill.ts"

export const maxResponseBytes = 5 * 1024 * 1024
export const maxTimeoutMs = 60_000
const maxRequestBodyChars = 1_000_000

export const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const

/** Headers the node sets itself: a caller naming one could smuggle a second request or lie about the body. */
const reservedHeaders = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-connection",
  "proxy-authorization"
])

const headerName = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

export const Headers = Schema.Record({
  key: Schema.String.pipe(
    Schema.filter((name) => headerName.test(name) || "a header name (letters, digits and !#$%&'*+-.^_`|~)"),
    Schema.filter((name) => !reservedHeaders.has(name.toLowerCase()) || `${name} is set by the node, not by the caller`)
  ),
  value: Schema.String.pipe(Schema.maxLength(8192), Schema.pattern(/^[^\r\n\0]*$/))
}).annotations({ description: "Request headers; the node sets host, content-length and the like itself." })

/** The fields both skills take; each adds its own body. */
export const requestFields = {
  method: withDefault(Schema.Literal(...methods), "GET"),
  url: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)).annotations({
    description: "An http or https address."
  }),
  headers: Schema.optionalWith(Headers, { exact: true }),
  maxBytes: withDefault(Schema.Int.pipe(Schema.between(1, maxResponseBytes)), 1024 * 1024).annotations({
    description: "Bytes of the answer's body kept; past that it is cut."
  }),
  timeoutMs: withDefault(Schema.Int.pipe(Schema.between(100, maxTimeoutMs)), 15_000),
  maxRedirects: withDefault(Schema.Int.pipe(Schema.between(0, 5)), 5).annotations({
    description:
      "Redirects followed, each checked against the node's address policy again; 0 answers the redirect itself."
  })
}

export const RequestBody = Schema.String.pipe(Schema.maxLength(maxRequestBodyChars))

export interface Exchange {
  readonly method: (typeof methods)[number]
  readonly url: string
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body?: string | undefined
  readonly maxBytes: number
  readonly timeoutMs: number
  readonly maxRedirects: number
}

/** One exchange through the network adapter; a refusal or a fault fails with its plain words. */
export const exchange = (
  skill: string,
  request: Exchange,
  context: SkillRunContext
): Effect.Effect<OutboundResponse, SkillFailure> =>
  Effect.gen(function* () {
    const network: NetworkAdapter | undefined = context.adapters.network
    if (network === undefined) return yield* new SkillFailure({ message: "network is not wired on this node yet." })
    if (request.body !== undefined && (request.method === "GET" || request.method === "HEAD")) {
      return yield* new SkillFailure({
        message: `${skill}: a ${request.method} request carries no body; use POST, PUT or PATCH.`
      })
    }
    const response = yield* refusedAsSkillFailure(
      network.request({
        method: request.method,
        url: request.url,
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: Buffer.from(request.body, "utf8") }),
        maxBytes: request.maxBytes,
        timeoutMs: request.timeoutMs,
        maxRedirects: request.maxRedirects
      })
    )
    context.trace({
      kind: "tool.result",
      text: `${skill}: ${request.method} ${response.url} answered ${response.status}`
    })
    return response
  })
