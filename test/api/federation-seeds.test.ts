/**
 * Seeds: a real node and a "device" in the test holding its own Ed25519 key, signing with the
 * node's own wire functions. The owner pairs it; it knocks, beats and acts through the bridge
 * within its grants; every refusal of docs/federation.md "Seeds" is a receipt, and changes nothing.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { capabilitiesOf, newKeyPair, type KeyPair } from "../support/federation.ts"
import { Client, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()
const wire = () => new Client(context.node.url).api.federationSeedWire
const seedsApi = () => context.owner.client.api.federationSeeds
let nodeDidCache: string | undefined
const nodeDid = async () => (nodeDidCache ??= (await capabilitiesOf(context.node)).payload.did)

/** A device: its key, and the sequence and nonce it must use next. */
class Device {
  seq = 0
  nonce: string | null = null
  readonly key: KeyPair = newKeyPair()
  get did() {
    return this.key.did
  }
  async knock() {
    const greeting = await run(wire().knock({ payload: { v: 1, protocol: 1, did: this.did } }))
    this.seq = greeting.seq
    this.nonce = greeting.nonce
    return greeting
  }
  beatDocument(note: string, overrides: Record<string, unknown> = {}) {
    return signPayload(
      {
        v: 1,
        type: "svc.seed.beat",
        did: this.did,
        aud: nodeDidCache,
        seq: this.seq + 1,
        nonce: this.nonce,
        note,
        ...overrides
      },
      this.key.secretKey
    )
  }
  actDocument(
    capability: string,
    method: string,
    args: ReadonlyArray<string>,
    overrides: Record<string, unknown> = {}
  ) {
    return signPayload(
      {
        v: 1,
        type: "svc.seed.act",
        did: this.did,
        aud: nodeDidCache,
        seq: this.seq + 1,
        nonce: this.nonce,
        capability,
        method,
        args,
        ...overrides
      },
      this.key.secretKey
    )
  }
  /** Posts a document and keeps what the receipt says comes next. */
  async send(route: "beat" | "act", document: unknown) {
    const receipt = await run(wire()[route]({ payload: document }))
    if (receipt.nonce !== null) {
      this.seq = receipt.seq
      this.nonce = receipt.nonce
    }
    return receipt
  }
  beat(note: string) {
    return this.send("beat", this.beatDocument(note))
  }
  act(capability: string, method: string, args: ReadonlyArray<string>) {
    return this.send("act", this.actDocument(capability, method, args))
  }
}

const pair = async (device: Device, grants?: ReadonlyArray<"signals" | "storage">, name = "Kitchen sensor") => {
  await nodeDid()
  const pairing = await run(
    seedsApi().pairSeed({ payload: { did: device.did as never, name, ...(grants === undefined ? {} : { grants }) } })
  )
  await device.knock()
  return pairing
}

const pairingOf = async (did: string) => (await run(seedsApi().listSeeds())).find((seed) => seed.did === did)

const query = <A>(statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  context.node.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, statement) as Effect.Effect<A>)

describe("pairing", () => {
  it("writes a being (with a soul), a key row without secret and the pairing; grants default to none", async () => {
    const device = new Device()
    const pairing = await pair(device)
    expect(pairing).toMatchObject({
      did: device.did,
      name: "Kitchen sensor",
      grants: [],
      status: "paired",
      seq: 0,
      beats: 0,
      acts: 0,
      refused: 0,
      lastNote: null
    })
    const [key] = await query(
      (sql) =>
        sql<{
          secret: string | null
          role: string
          beingId: string
        }>`SELECT secret, role, being_id AS "beingId" FROM federation_keys WHERE did = ${device.did}`
    )
    expect(key).toEqual({ secret: null, role: "being", beingId: pairing.beingId })
    const [being] = await query(
      (sql) => sql<{ kind: string; email: string | null }>`SELECT kind, email FROM beings WHERE id = ${pairing.beingId}`
    )
    expect(being).toEqual({ kind: "seed", email: null })
    const souls = await query(
      (sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM souls WHERE being_id = ${pairing.beingId}`
    )
    expect(souls[0]!.n).toBe(1)
    expect(await pairingOf(device.did)).toEqual(pairing)
  })

  it("two concurrent pairs of one did make one pairing and one being", async () => {
    const device = new Device()
    await nodeDid()
    const attempts = await Promise.allSettled(
      [0, 1].map(() => run(seedsApi().pairSeed({ payload: { did: device.did as never, name: "Twin" } })))
    )
    expect(attempts.filter((attempt) => attempt.status === "fulfilled")).toHaveLength(1)
    const beings = await query(
      (sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM federation_keys WHERE did = ${device.did}`
    )
    expect(beings[0]!.n).toBe(1)
    const again = await refused(seedsApi().pairSeed({ payload: { did: device.did as never, name: "Twin" } }))
    expect([again.status, again.body.error]).toEqual([409, "seed_exists"])
  })

  it("refuses this node's own did, a bad did, a taken handle; a member may not pair", async () => {
    const own = await refused(seedsApi().pairSeed({ payload: { did: (await nodeDid()) as never, name: "Me" } }))
    expect([own.status, own.body.error]).toEqual([400, "own_node"])
    const bad = await context.owner.client.raw("POST", "/api/federation/seeds", { did: "did:key:nope", name: "Bad" })
    expect(bad.status).toBe(400)
    const taken = await refused(
      seedsApi().pairSeed({
        payload: { did: new Device().did as never, name: "Taken", handle: context.owner.registration.handle }
      })
    )
    expect([taken.status, taken.body.error]).toEqual([409, "handle_taken"])
    const member = await registerMember(context.node, context.owner.client)
    const forbidden = await refused(
      member.client.api.federationSeeds.pairSeed({ payload: { did: new Device().did as never, name: "X" } })
    )
    expect(forbidden.status).toBe(403)
    const before = (await run(seedsApi().listSeeds())).length
    expect(before).toBe(2)
  })
})

describe("knock and beat", () => {
  it("an unpaired address learns nothing: accepted false, no nonce, no grants, seq 0", async () => {
    const greeting = await new Device().knock()
    expect(greeting).toMatchObject({ accepted: false, nonce: null, grants: [], seq: 0, node: await nodeDid() })
  })

  it("a paired seed beats; a replay is refused by sequence, an old nonce by nonce; always 200", async () => {
    const device = new Device()
    await pair(device, ["signals"])
    expect(device.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/)
    const first = device.beatDocument("hello")
    const accepted = await device.send("beat", first)
    expect(accepted).toMatchObject({ accepted: true, code: null, seq: 1, basis: "nonce" })
    expect(accepted.nonce).not.toBe(first.payload.nonce)

    const replay = await device.send("beat", first)
    expect(replay).toMatchObject({
      accepted: false,
      code: "replayed",
      basis: "sequence",
      seq: 1,
      nonce: accepted.nonce
    })
    const oldNonce = await device.send("beat", device.beatDocument("again", { nonce: first.payload.nonce }))
    expect(oldNonce).toMatchObject({ accepted: false, code: "stale_nonce", basis: "nonce", seq: 1 })

    expect(await pairingOf(device.did)).toMatchObject({ beats: 1, refused: 2, seq: 1, lastNote: "hello" })
    expect((await device.beat("second")).accepted).toBe(true)
    expect(await pairingOf(device.did)).toMatchObject({ beats: 2, seq: 2, lastNote: "second", lastError: null })
  })

  it("tampered, wrong audience, wrong type, malformed and unknown documents are refused and change nothing", async () => {
    const device = new Device()
    await pair(device)
    const before = await pairingOf(device.did)
    const document = device.beatDocument("note")
    const tampered = await device.send("beat", { ...document, payload: { ...document.payload, note: "changed" } })
    expect(tampered).toMatchObject({ accepted: false, code: "bad_signature", nonce: null, seq: 0 })
    expect((await device.send("beat", device.beatDocument("x", { aud: newKeyPair().did }))).code).toBe("wrong_audience")
    expect((await device.send("beat", device.beatDocument("x", { type: "svc.seed.nope" }))).code).toBe(
      "protocol_unsupported"
    )
    expect((await device.send("beat", { hello: 1 })).code).toBe("malformed")
    const stranger = new Device()
    stranger.nonce = device.nonce
    expect(await stranger.send("beat", stranger.beatDocument("x"))).toMatchObject({
      accepted: false,
      code: "unknown_seed",
      nonce: null,
      seq: 0
    })
    expect(await pairingOf(device.did)).toEqual(before)
    expect((await device.beat("fine")).accepted).toBe(true)
  })
})

describe("acts through the bridge", () => {
  it("storage.set and storage.get in the seed's own storage", async () => {
    const device = new Device()
    await pair(device, ["storage"])
    expect(await device.act("storage", "storage.set", ["door", "open"])).toMatchObject({
      accepted: true,
      result: { key: "door" }
    })
    expect(await device.act("storage", "storage.get", ["door"])).toMatchObject({
      accepted: true,
      result: { key: "door", value: "open" }
    })
    // Another seed has storage of its own.
    const other = new Device()
    await pair(other, ["storage"], "Other")
    expect(await other.act("storage", "storage.get", ["door"])).toMatchObject({
      accepted: true,
      result: { value: null }
    })
    expect(await pairingOf(device.did)).toMatchObject({ acts: 2 })
  })

  it("signals.raise lands on the owner's desktop with no field naming the seed", async () => {
    const device = new Device()
    const pairing = await pair(device, ["signals"], "Doorbell")
    const receipt = await device.act("signals", "signals.raise", ["Someone rang", "At the front door"])
    expect(receipt.accepted).toBe(true)
    const signals = await run(
      context.owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } })
    )
    const signal = signals.find((one) => one.title === "Someone rang")
    expect(signal).toMatchObject({ body: "At the front door", beingId: context.owner.being.id, source: "seed" })
    const text = JSON.stringify(signal)
    for (const name of [device.did, pairing.beingId, "Doorbell"]) expect(text).not.toContain(name)
  })

  it("refuses an ungranted capability, network, a method of another capability, four args; each spends the document", async () => {
    const device = new Device()
    await pair(device, ["storage"])
    expect(await device.act("signals", "signals.raise", ["No"])).toMatchObject({ accepted: false, code: "not_granted" })
    expect(await device.act("network", "http.fetch", ["https://example.org"])).toMatchObject({
      accepted: false,
      code: "capability_withheld"
    })
    expect(await device.act("memory", "memory.search", ["x"])).toMatchObject({
      accepted: false,
      code: "capability_withheld"
    })
    expect(await device.act("storage", "signals.raise", ["x"])).toMatchObject({
      accepted: false,
      code: "unknown_method"
    })
    expect(await device.act("storage", "storage.set", ["a", "b", "c", "d"])).toMatchObject({
      accepted: false,
      code: "bad_args"
    })
    expect(await device.act("storage", "storage.set", ["a"])).toMatchObject({ accepted: false, code: "bad_args" })
    const signals = await run(
      context.owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } })
    )
    expect(signals.some((one) => one.title === "No")).toBe(false)
    const stored = await query(
      (sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM bridge_storage WHERE scope = ${`seed:${device.did}`}`
    )
    expect(stored[0]!.n).toBe(0)
    expect(await pairingOf(device.did)).toMatchObject({ acts: 0, refused: 6 })
  })
})

describe("the owner's edits", () => {
  it("PATCH grants opens a capability; blocked refuses everything and a knock learns nothing", async () => {
    const device = new Device()
    await pair(device)
    expect((await device.act("storage", "storage.set", ["k", "v"])).code).toBe("not_granted")
    const granted = await run(
      seedsApi().updateSeed({ path: { id: device.did }, payload: { grants: ["storage", "signals"], name: "Renamed" } })
    )
    expect(granted).toMatchObject({ grants: ["signals", "storage"], name: "Renamed", status: "paired" })
    expect((await device.act("storage", "storage.set", ["k", "v"])).accepted).toBe(true)

    await run(seedsApi().updateSeed({ path: { id: device.did }, payload: { blocked: true } }))
    expect(await device.knock()).toMatchObject({ accepted: false, nonce: null, grants: [], seq: 0 })
    const seq = (await pairingOf(device.did))!.seq
    const nonce = await query(
      (sql) => sql<{ nonce: string }>`SELECT nonce FROM federation_seeds WHERE did = ${device.did}`
    )
    device.seq = seq
    device.nonce = nonce[0]!.nonce
    expect(await device.beat("let me in")).toMatchObject({ accepted: false, code: "blocked" })
    expect(await device.act("storage", "storage.get", ["k"])).toMatchObject({
      accepted: false,
      code: "blocked",
      result: null
    })
    expect(await pairingOf(device.did)).toMatchObject({ status: "blocked", seq, lastNote: null })

    await run(seedsApi().updateSeed({ path: { id: device.did }, payload: { blocked: false } }))
    await device.knock()
    expect((await device.beat("back")).accepted).toBe(true)
    const missing = await refused(seedsApi().updateSeed({ path: { id: newKeyPair().did }, payload: { blocked: true } }))
    expect([missing.status, missing.body.error]).toEqual([404, "seed_not_found"])
  })

  it("DELETE unpairs and keeps the being; the device is then unknown", async () => {
    const device = new Device()
    const pairing = await pair(device, ["storage"])
    const removed = await run(seedsApi().removeSeed({ path: { id: device.did } }))
    expect(removed).toEqual({ did: device.did, removed: true, beingId: pairing.beingId })
    expect(await pairingOf(device.did)).toBeUndefined()
    const being = await query((sql) => sql<{ id: string }>`SELECT id FROM beings WHERE id = ${pairing.beingId}`)
    expect(being).toHaveLength(1)
    expect((await device.beat("gone")).code).toBe("unknown_seed")
    const again = await refused(seedsApi().removeSeed({ path: { id: device.did } }))
    expect([again.status, again.body.error]).toEqual([404, "seed_not_found"])
    // Paired again, it is the same being.
    expect((await pair(device)).beingId).toBe(pairing.beingId)
  })
})
