/** The peer's moves, row by row of the second document's States and transitions. */
import { describe, expect, it } from "vitest"
import { afterGreeting, afterSilence, afterUpdate } from "../../../actors/peer/states.ts"
import type { Peer } from "../../../extensions/federation/contract/records.ts"

const peer = (status: Peer["status"]): Peer => ({
  nodeDid: "did:key:z6Mkexample",
  endpoint: "https://a.example",
  name: "a",
  status,
  label: null,
  profile: null,
  software: null,
  serves: [],
  addedAt: "t0",
  verifiedAt: null,
  lastSeenAt: null,
  collectedAt: null,
  relay: null,
  lastError: null,
  publish: false
})

const verified = {
  verified: true,
  accepted: true,
  reason: "ok",
  check: null,
  skewSeconds: 0,
  claims: { label: "A", profile: "personal", software: "x/1", serves: ["peer.deliver"] }
}

describe("peer states", () => {
  it("a greeting that holds verifies and copies the claims; one that does not is refused with its reason; silence is unreachable", () => {
    expect(afterGreeting(peer("unverified"), verified, "t1")).toMatchObject({
      status: "verified",
      verifiedAt: "t1",
      label: "A",
      serves: ["peer.deliver"],
      lastError: null
    })
    expect(
      afterGreeting(peer("verified"), { ...verified, verified: false, claims: null, reason: "no" }, "t1")
    ).toMatchObject({ status: "refused", lastError: "no" })
    expect(afterSilence(peer("verified"), "refused the connection")).toMatchObject({
      status: "unreachable",
      lastError: "refused the connection"
    })
  })

  it("block is sticky: a move keeps it; unblock is unverified, never verified", () => {
    const blocked = afterUpdate(peer("verified"), { blocked: true })
    expect(blocked.status).toBe("blocked")
    expect(afterUpdate(blocked, { endpoint: "https://b.example" })).toMatchObject({
      status: "blocked",
      endpoint: "https://b.example"
    })
    expect(afterUpdate(blocked, { blocked: false }).status).toBe("unverified")
    expect(afterUpdate(peer("verified"), { blocked: false }).status).toBe("verified")
  })

  it("a move of an unblocked peer needs a new handshake; other edits keep the state", () => {
    expect(afterUpdate(peer("verified"), { endpoint: "https://b.example" }).status).toBe("unverified")
    expect(
      afterUpdate(peer("verified"), { endpoint: "https://a.example", name: "x", publish: true, relay: null })
    ).toMatchObject({ status: "verified", name: "x", publish: true })
    expect(afterUpdate({ ...peer("verified"), relay: "https://r.example" }, {}).relay).toBe("https://r.example")
  })
})
