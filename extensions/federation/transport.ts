/**
 * The federation's way out: a JSON post to a peer through the node's outbound HTTP
 * (kernel/http/outbound.ts: a deadline, a byte cap, every address checked on connect). The peer's
 * endpoint is the owner's own choice, typed in by hand like the search engine's address, so
 * loopback and private addresses are allowed for it (docs/federation.md "Reaching a peer"); no
 * redirect is followed, so a peer cannot send the node's documents on elsewhere.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PeerTransport, PeerUnreachable } from "./contract/ports.ts"
import { makeOutbound } from "../../kernel/http/outbound.ts"
import { hostVersion } from "../../kernel/version.ts"
import { spanNamed } from "../../kernel/spans.ts"

const TIMEOUT_MS = 10_000
const MAX_ANSWER_BYTES = 256 * 1024

export const PeerTransportLive = Layer.sync(PeerTransport, () => {
  const outbound = makeOutbound({ allowPrivate: true, userAgent: `svc-node/${hostVersion}` })
  /** A GET when there is no body, else a JSON POST. */
  const call = (endpoint: string, path: string, body: { readonly json: unknown } | null) =>
    Effect.tryPromise({
      try: (signal) =>
        outbound({
          url: `${endpoint.replace(/\/+$/, "")}${path}`,
          method: body === null ? "GET" : "POST",
          headers:
            body === null
              ? { accept: "application/json" }
              : { "content-type": "application/json", accept: "application/json" },
          ...(body === null ? {} : { body: new TextEncoder().encode(JSON.stringify(body.json)) }),
          maxBytes: MAX_ANSWER_BYTES,
          timeoutMs: TIMEOUT_MS,
          maxRedirects: 0,
          signal
        }),
      catch: (error) => new PeerUnreachable({ reason: error instanceof Error ? error.message : String(error) })
    }).pipe(
      Effect.flatMap((answer) => {
        if (answer.truncated)
          return Effect.fail(new PeerUnreachable({ reason: `Its answer is larger than ${MAX_ANSWER_BYTES} bytes.` }))
        try {
          return Effect.succeed({
            status: answer.status,
            json: JSON.parse(new TextDecoder().decode(answer.body)) as unknown
          })
        } catch {
          return Effect.fail(
            new PeerUnreachable({ reason: `It answered HTTP ${answer.status} with something that is not JSON.` })
          )
        }
      }),
      spanNamed(body === null ? "federation.get" : "federation.post")
    )
  return {
    post: (endpoint, path, json) => call(endpoint, path, { json }),
    get: (endpoint, path) => call(endpoint, path, null)
  }
})
