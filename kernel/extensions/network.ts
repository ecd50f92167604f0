/**
 * The `network` capability's adapter: the node's outbound HTTP under its policy, and the search
 * engine its owner configured. The host implements it (host/network); plugins and the web skills
 * use it through their context, so every request that leaves the host follows one set of rules.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "./capability-refused.ts"

export interface OutboundRequest {
  /** http or https only. */
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  /** Bytes of the (decompressed) body kept; past that the body is cut and `truncated` set. */
  readonly maxBytes: number
  /** For the whole exchange, redirects and body included. */
  readonly timeoutMs: number
}

/** Any method, with a body; redirects are followed by hand, each hop checked against the policy again. */
export interface OutboundHttpRequest extends OutboundRequest {
  /** Upper case: GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS. */
  readonly method: string
  readonly body?: Uint8Array
  /** How many redirects to follow, at most the node's own cap (5); 0 answers the redirect itself. */
  readonly maxRedirects?: number
}

export interface OutboundResponse {
  /** Where the answer came from, after redirects. */
  readonly url: string
  readonly status: number
  /** Lowercase names. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array
  readonly truncated: boolean
}

export interface SearchHit {
  readonly title: string
  readonly url: string
  readonly snippet: string
}

export interface SearchOptions {
  readonly maxResults: number
}

export interface NetworkAdapter {
  /** A GET; refused saying plainly why (refused address, timeout, ...). */
  readonly get: (request: OutboundRequest) => Effect.Effect<OutboundResponse, CapabilityRefused>
  /**
   * Any method with a body, under the same policy as `get`. A 303 (or a 301/302 after a POST)
   * goes on as a GET without the body; credentials are not carried to another origin.
   */
  readonly request: (request: OutboundHttpRequest) => Effect.Effect<OutboundResponse, CapabilityRefused>
  /** The node's configured search engine; null when the owner configured none. */
  readonly search:
    | ((query: string, options: SearchOptions) => Effect.Effect<ReadonlyArray<SearchHit>, CapabilityRefused>)
    | null
}
