/**
 * The peer's states and their moves (the second document's States and transitions), as pure
 * functions of the row: a greeting's outcome, and an owner's edit. Blocked is sticky: only an
 * unblock leaves it, to unverified, never straight to verified; a new endpoint is a move that
 * keeps a block and otherwise needs a fresh handshake.
 */
import type { GreetingCheck } from "../../extensions/federation/contract/ports.ts"
import type { Peer, PeerUpdate } from "../../extensions/federation/contract/records.ts"

export const afterGreeting = (peer: Peer, outcome: GreetingCheck, at: string): Peer =>
  outcome.verified
    ? {
        ...peer,
        status: "verified",
        verifiedAt: at,
        lastSeenAt: at,
        lastError: null,
        label: outcome.claims?.label ?? peer.label,
        profile: outcome.claims?.profile ?? peer.profile,
        software: outcome.claims?.software ?? peer.software,
        serves: outcome.claims?.serves ?? peer.serves
      }
    : { ...peer, status: "refused", lastSeenAt: at, lastError: outcome.reason }

export const afterSilence = (peer: Peer, reason: string): Peer => ({
  ...peer,
  status: "unreachable",
  lastError: reason
})

export const afterUpdate = (peer: Peer, update: PeerUpdate): Peer => {
  let status = peer.status
  const moved = update.endpoint !== undefined && update.endpoint !== peer.endpoint
  if (moved && status !== "blocked") status = "unverified"
  if (update.blocked === true) status = "blocked"
  if (update.blocked === false && status === "blocked") status = "unverified"
  return {
    ...peer,
    status,
    endpoint: update.endpoint ?? peer.endpoint,
    name: update.name ?? peer.name,
    publish: update.publish ?? peer.publish,
    relay: update.relay === undefined ? peer.relay : update.relay
  }
}
