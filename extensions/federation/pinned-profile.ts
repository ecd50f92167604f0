/**
 * The signed capability profile of a node this node uses by URL (its relay, its directory),
 * checked against the did pinned for that URL at the first success: the profile, or why not in
 * words for `lastError`. Both clients pin the same way, so a different key at the same URL is
 * refused the same way.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { PeerTransportShape } from "./contract/ports.ts"
import { SignedCapabilityProfile } from "./contract/wire.ts"
import { verifiedBy } from "./wire/signed.ts"

const decodeProfile = Schema.decodeUnknownOption(SignedCapabilityProfile)

export interface PinnedUse {
  /** What the node is to this one, in words: "relay", "directory". */
  readonly what: string
  /** The did pinned for this URL, or null before the first success. */
  readonly pinned: string | null
  /** The end of the refusal when another did answers: what the pin came from and what was not done. */
  readonly whenMoved: string
}

export const pinnedProfile = (
  transport: PeerTransportShape,
  url: string,
  path: string,
  use: PinnedUse
): Effect.Effect<{ readonly profile: SignedCapabilityProfile } | { readonly refused: string }> =>
  Effect.gen(function* () {
    const answer = yield* Effect.either(transport.get(url, path))
    if (answer._tag === "Left") return { refused: `The ${use.what} did not answer: ${answer.left.reason}` }
    const profile = decodeProfile(answer.right.json)
    if (
      answer.right.status !== 200 ||
      Option.isNone(profile) ||
      !verifiedBy(profile.value, profile.value.payload.did)
    ) {
      return { refused: `The ${use.what} did not answer with a signed capability profile.` }
    }
    const did = profile.value.payload.did
    if (use.pinned !== null && did !== use.pinned) {
      return { refused: `The ${use.what} at that URL now answers as ${did}, not ${use.pinned}, ${use.whenMoved}` }
    }
    return { profile: profile.value }
  })
