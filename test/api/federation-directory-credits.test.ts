/**
 * A directory's registration credits (docs/federation.md "The directory", "Credits"), two real
 * nodes on loopback: D runs as a directory granting 250 credits, A registers with it through a
 * proxy (so D can restart on another port behind the same URL). A's first registration listing
 * its owner's handle credits the owner's wallet with 250, one `directory` entry from the mint, and
 * DirectoryStatus says so; a renewal, or a renewal at the restarted directory, credits nothing
 * more; the directory grants a did once (its receipt says 0 after), and nothing to a registration
 * listing no handle. The ledger's totals still sum to zero.
 */
import * as Option from "effect/Option"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newKeyPair } from "../../extensions/federation/wire/did-key.ts"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { capabilitiesOf } from "../support/federation.ts"
import { recordingProxy, type RecordingProxy } from "../support/recording-proxy.ts"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { ledgerState } from "./market-support.ts"

const GRANT = 250
const directoryDir = mkdtempSync(join(tmpdir(), "directory-credits-"))
const directorySettings = { dataDir: directoryDir, directoryOn: true, directoryRegistrationCredits: GRANT }

let d: TestNode
let a: TestNode
let toD: RecordingProxy
let ownerA: Registered
let didD: string

beforeAll(async () => {
  d = await startNode(directorySettings)
  toD = await recordingProxy(d.url)
  a = await startNode({ directoryEndpoint: Option.some(toD.url) })
  ownerA = await registerOwner(a)
  didD = (await capabilitiesOf(d)).payload.did
}, 90_000)
afterAll(async () => {
  await Promise.all([a.close(), d.close(), toD.close()])
  rmSync(directoryDir, { recursive: true, force: true })
})

const stranger = newKeyPair()
const statusOf = () => run(ownerA.client.api.federation.directoryStatus())
const walletOf = () => run(ownerA.client.api.market.wallet())
const directoryEntries = async () =>
  (await run(ownerA.client.api.market.ledger({ urlParams: { limit: 50, offset: 0 } }))).filter(
    (entry) => entry.reason === "directory"
  )

/**
 * A registration a stranger signs for directory D, posted on D's wire route; answers the receipt's credits (or the
 * refusal).
 */
const strangerRegisters = async (node: TestNode, handles: Array<string>) => {
  const registration = signPayload(
    {
      v: 1,
      type: "svc.directory.registration",
      did: stranger.did,
      aud: didD,
      endpoint: "http://127.0.0.1:1",
      handles,
      issuedAt: new Date().toISOString()
    },
    stranger.secretKey
  )
  const answer = await new Client(node.url).raw("POST", "/api/federation/directory/register", registration)
  return answer.body as { accepted: boolean; receipt: { payload: { credits: number } } | null }
}

describe("the directory's registration credits", () => {
  it("credits the owner's wallet once at the first registration listing the owner's handle, through one ledger entry", async () => {
    const registered = await run(ownerA.client.api.federation.directoryRegister())
    expect(registered).toMatchObject({ registered: true, lastError: null, directoryDid: didD, creditsClaimed: GRANT })
    expect(await statusOf()).toMatchObject({ creditsClaimed: GRANT })
    const entries = await directoryEntries()
    expect(entries).toEqual([
      expect.objectContaining({ amount: GRANT, counterparty: "mint", reason: "directory", orderId: null })
    ])
    const ledger = await run(ownerA.client.api.market.ledger({ urlParams: { limit: 50, offset: 0 } }))
    expect((await walletOf()).balance).toBe(ledger.reduce((sum, entry) => sum + entry.amount, 0))
    // Money entering the node, like a starting credit: not counted as earned.
    expect((await walletOf()).earned).toBe(0)
    expect(await ledgerState(a)).toMatchObject({ total: 0, drifted: [] })
  })

  it("credits nothing more on a renewal", async () => {
    const before = await walletOf()
    const renewed = await run(ownerA.client.api.federation.directoryRegister())
    expect(renewed).toMatchObject({ registered: true, lastError: null, creditsClaimed: GRANT })
    expect(await walletOf()).toEqual({ ...before, updatedAt: expect.any(String) })
    expect(await directoryEntries()).toHaveLength(1)
  })

  it("grants a did once, and nothing to a registration listing no handle", async () => {
    expect(await strangerRegisters(d, [])).toMatchObject({ accepted: true, receipt: { payload: { credits: 0 } } })
    expect(await strangerRegisters(d, ["stranger-one"])).toMatchObject({
      accepted: true,
      receipt: { payload: { credits: GRANT } }
    })
    expect(await strangerRegisters(d, ["stranger-one"])).toMatchObject({
      accepted: true,
      receipt: { payload: { credits: 0 } }
    })
    expect(await strangerRegisters(d, ["stranger-two"])).toMatchObject({
      accepted: true,
      receipt: { payload: { credits: 0 } }
    })
  })

  it("grants nothing again once the directory restarted, and the node credits nothing more", async () => {
    const before = await walletOf()
    await d.close()
    d = await startNode(directorySettings)
    toD.target = d.url
    expect((await capabilitiesOf(d)).payload.did).toBe(didD)
    const renewed = await run(ownerA.client.api.federation.directoryRegister())
    expect(renewed).toMatchObject({ registered: true, lastError: null, directoryDid: didD, creditsClaimed: GRANT })
    expect(await walletOf()).toEqual({ ...before, updatedAt: expect.any(String) })
    expect(await directoryEntries()).toHaveLength(1)
    expect(await ledgerState(a)).toMatchObject({ total: 0, drifted: [] })
    // The directory remembers whom it granted across the restart.
    expect(await strangerRegisters(d, ["stranger-one"])).toMatchObject({
      accepted: true,
      receipt: { payload: { credits: 0 } }
    })
  })
})
