/**
 * The first rungs of a seed document's ladder, the ones that need no table: its shape, its
 * version and type, its audience, and its signature by the did it names (docs/federation.md
 * "Seeds"). What passes goes to that seed's actor.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { SeedRefusalCode } from "./contract/seeds.ts"
import { verifiedBy } from "./wire/signed.ts"

export interface EarlyRefusal {
  readonly code: SeedRefusalCode
  readonly reason: string
}

const claims = (body: unknown): { readonly v?: unknown; readonly type?: unknown } | null => {
  if (typeof body !== "object" || body === null || !("payload" in body)) return null
  const payload = body.payload
  return typeof payload === "object" && payload !== null ? payload : null
}

/** The document's payload when it is `type`'s shape, for `nodeDid`, signed by its own did; else why not. */
export const checkSeedDocument = <P extends { readonly did: string; readonly aud: string }, I>(
  schema: Schema.Schema<{ readonly payload: P; readonly signature: string }, I>,
  type: string,
  body: unknown,
  nodeDid: string
): { readonly payload: P } | EarlyRefusal => {
  const claimed = claims(body)
  if (claimed !== null && (claimed.v !== 1 || claimed.type !== type)) {
    return { code: "protocol_unsupported", reason: `This node reads seed documents of v 1 and type ${type}.` }
  }
  const decoded = Schema.decodeUnknownEither(schema)(body, { onExcessProperty: "error" })
  if (Either.isLeft(decoded)) return { code: "malformed", reason: `The body is not a signed ${type} document.` }
  const document = decoded.right
  if (document.payload.aud !== nodeDid) return { code: "wrong_audience", reason: "The document is for another node." }
  if (!verifiedBy(document, document.payload.did))
    return { code: "bad_signature", reason: "The document is not signed by the did it names." }
  return { payload: document.payload }
}
