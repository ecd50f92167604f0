/**
 * The courier's way round a peer it cannot dial: a peer whose owner-entered `relay` is set gets
 * its direct messages left there, sealed exactly as they would have been delivered (docs/
 * federation.md "The relay": direct first, the relay when direct fails).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { PeerTransportShape } from "../contract/ports.ts"
import { DepositReceipt } from "../contract/relay.ts"
import type { SealedEnvelope } from "../contract/wire.ts"
import { RELAY_PATHS } from "./facilities.ts"

const decodeReceipt = Schema.decodeUnknownOption(DepositReceipt)

/** Null when the relay holds the envelope now (a `replayed` deposit was held before); else why not. */
export const depositAt = (transport: PeerTransportShape, relay: string, envelope: SealedEnvelope) =>
  Effect.map(Effect.either(transport.post(relay, RELAY_PATHS.deposit, { envelope })), (answer): string | null => {
    if (answer._tag === "Left") return `its relay did not answer either: ${answer.left.reason}`
    const receipt = answer.right.status === 200 ? decodeReceipt(answer.right.json) : Option.none()
    if (Option.isNone(receipt)) return `its relay answered HTTP ${answer.right.status}, not a receipt`
    const { accepted, code, reason } = receipt.value
    return accepted || code === "replayed" ? null : `its relay refused it (${code}: ${reason.slice(0, 160)})`
  })
