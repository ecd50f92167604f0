/**
 * The `network` capability's adapter: the node's outbound HTTP under its policy, and the search
 * engine its owner configured. The host implements it (host/network); plugins and the web skills
 * use it through their context, so every request that leaves the host follows one set of rules.
 */

export interface OutboundRequest {
  /** http or https only. */
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  /** Bytes of the (decompressed) body kept; past that the body is cut and `truncated` set. */
  readonly maxBytes: number
  /** For the whole exchange, redirects and body included. */
  readonly timeoutMs: number
  readonly signal?: AbortSignal
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
  readonly signal?: AbortSignal
}

export interface NetworkAdapter {
  /** A GET; rejects with an Error whose message says plainly why (refused address, timeout, ...). */
  readonly get: (request: OutboundRequest) => Promise<OutboundResponse>
  /** The node's configured search engine; null when the owner configured none. */
  readonly search: ((query: string, options: SearchOptions) => Promise<ReadonlyArray<SearchHit>>) | null
}
