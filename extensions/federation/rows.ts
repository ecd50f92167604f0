/**
 * A new wire row (`federation_messages`), both ways: an outbound one queued and due at once, an
 * inbound one received and verified. The one place that says what a fresh row holds.
 */
import { randomBytes } from "node:crypto"
import type { FederatedMessage } from "./contract/records.ts"

export interface RowParties {
  readonly kind: FederatedMessage["kind"]
  readonly threadId: string | null
  readonly messageId: string
  readonly peerDid: string
  readonly authorDid: string
  readonly audienceDid: string
  readonly digest: string
  /** When it is made (and, outbound, due). */
  readonly at: string
}

export const newRowId = () => randomBytes(12).toString("base64url")

const fresh = (parties: RowParties) => {
  const { at, ...rest } = parties
  return { id: newRowId(), ...rest, attempts: 0, lastError: null, verified: true, createdAt: at, updatedAt: at }
}

/** An outbound row, sealed at each attempt (protocol 2, the only one sent), queued and due now. */
export const queuedRow = (parties: RowParties): FederatedMessage => ({
  ...fresh(parties),
  direction: "out",
  sealed: true,
  state: "queued",
  nextAttemptAt: parties.at
})

/** An inbound row deliver accepted; `sealed` false for a protocol-1 envelope. */
export const receivedRow = (parties: RowParties, sealed: boolean): FederatedMessage => ({
  ...fresh(parties),
  direction: "in",
  sealed,
  state: "received",
  nextAttemptAt: null
})
