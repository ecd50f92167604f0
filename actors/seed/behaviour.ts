/**
 * The seed actor: one entity per paired seed (protocol.ts). It pairs (the being, its key row and
 * the pairing in one transaction), edits and unpairs, answers knocks, and judges each signed beat
 * and act for freshness (states.ts), then issues the next nonce. An act runs through the same
 * allowlisted bridge as a module's call, as the owner's being (a seed's signal lands on the
 * owner's desktop), in the seed's own storage scope, within its grants; what it raises names no
 * one (`seed` is the whole source).
 */
import * as Entity from "@effect/cluster/Entity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { Bridge, type BridgeError } from "../../extensions/modules/bridge/contract/bridge.ts"
import type { SeedReceipt } from "../../extensions/federation/contract/seeds.ts"
import { entityLayer } from "../../kernel/actors/index.ts"
import { RefusalStatus } from "../../kernel/contract/errors.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { SeedBeings } from "./contract/seed-beings.ts"
import { SeedExists, SeedMissing } from "./contract/errors.ts"
import { SeedEntity } from "./protocol.ts"
import { afterUpdate, delegationOf, ordered, staleness, type Refusal } from "./states.ts"
import { pairingOf, SeedsRepository, type StoredSeed } from "./seeds-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** What a seed's signal names as its source: no seed, no being, no did. */
export const SEED_SOURCE = "seed"

const newNonce = () => randomBytes(16).toString("base64url")

/** The bridge's refusals, as a seed's receipt names them. */
const bridgeRefusal = (error: BridgeError): Refusal => ({
  code: error[RefusalStatus] === 400 ? "bad_args" : error[RefusalStatus] === 403 ? "not_granted" : "bridge_refused",
  basis: "none",
  reason: error.message
})

const build = Effect.gen(function* () {
  const did = (yield* Entity.CurrentAddress).entityId
  const sql = yield* SqlClient.SqlClient
  const seeds = yield* SeedsRepository
  const beings = yield* SeedBeings
  const bridge = yield* Bridge
  const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

  const existing = Effect.flatMap(
    seeds.find(did),
    Option.match({
      onNone: () => Effect.fail(new SeedMissing({ did })),
      onSome: Effect.succeed
    })
  )

  const receipt = (
    seed: StoredSeed | null,
    at: string,
    outcome: Refusal | { readonly result: unknown }
  ): SeedReceipt =>
    "code" in outcome
      ? {
          accepted: false,
          code: outcome.code,
          reason: outcome.reason,
          basis: outcome.basis,
          seq: seed?.seq ?? 0,
          nonce: seed?.nonce ?? null,
          at,
          result: null
        }
      : {
          accepted: true,
          code: null,
          reason: "Accepted.",
          basis: "nonce",
          seq: seed?.seq ?? 0,
          nonce: seed?.nonce ?? null,
          at,
          result: outcome.result
        }

  /** A refusal of the seed's own signed document: counted, and said in lastError. */
  const refuse = (seed: StoredSeed, at: string, refusal: Refusal) =>
    Effect.gen(function* () {
      const next = {
        ...seed,
        refused: seed.refused + 1,
        lastSeenAt: at,
        lastError: `${refusal.code}: ${refusal.reason}`
      }
      yield* seeds.save(next)
      return receipt(next, at, refusal)
    })

  /**
   * The checks every signed document of a known seed passes: paired (not blocked), then fresh.
   * A fresh document is spent at once (its sequence kept, a new nonce issued), whatever follows.
   */
  const admit = (document: { readonly seq: number; readonly nonce: string }, at: string) =>
    Effect.gen(function* () {
      const found = yield* seeds.find(did)
      if (Option.isNone(found)) {
        return {
          refused: receipt(null, at, {
            code: "unknown_seed",
            basis: "none",
            reason: "This node has not paired that address."
          })
        } as const
      }
      const seed = found.value
      if (seed.status === "blocked") {
        return {
          refused: yield* refuse(seed, at, { code: "blocked", basis: "none", reason: "The owner blocked this seed." })
        } as const
      }
      const stale = staleness(seed, document)
      if (stale !== null) return { refused: yield* refuse(seed, at, stale) } as const
      return { seed: { ...seed, seq: document.seq, nonce: newNonce(), lastSeenAt: at } } as const
    })

  return SeedEntity.of({
    Pair: ({ payload }) =>
      Effect.gen(function* () {
        const at = yield* isoNow
        if (Option.isSome(yield* seeds.find(did))) return yield* Effect.fail(new SeedExists({ did }))
        const beingId = yield* beings.raise({ did, name: payload.name, handle: payload.handle, at })
        const seed: StoredSeed = {
          did,
          beingId,
          name: payload.name,
          profile: "device",
          grants: ordered(payload.grants),
          status: "paired",
          seq: 0,
          nonce: newNonce(),
          beats: 0,
          acts: 0,
          refused: 0,
          pairedAt: at,
          lastSeenAt: null,
          lastNote: null,
          lastError: null
        }
        if (!(yield* seeds.insert(seed))) return yield* Effect.fail(new SeedExists({ did }))
        return pairingOf(seed)
      }).pipe(sql.withTransaction, orDieOnStorageFault, spanNamed("seed.pair")),
    Update: ({ payload }) =>
      Effect.gen(function* () {
        const next = afterUpdate(yield* existing, payload)
        yield* seeds.save(next)
        return pairingOf(next)
      }).pipe(spanNamed("seed.update")),
    Remove: () =>
      Effect.map(seeds.remove(did), (removed) => removed[0]?.beingId ?? null).pipe(spanNamed("seed.remove")),
    Knock: () =>
      Effect.map(
        seeds.find(did),
        Option.match({
          onNone: () => null,
          onSome: (seed) =>
            seed.status === "blocked" ? null : { nonce: seed.nonce, seq: seed.seq, grants: seed.grants }
        })
      ).pipe(spanNamed("seed.knock")),
    Beat: ({ payload: { beat } }) =>
      Effect.gen(function* () {
        const at = yield* isoNow
        const admitted = yield* admit(beat, at)
        if ("refused" in admitted) return admitted.refused
        const next = { ...admitted.seed, beats: admitted.seed.beats + 1, lastNote: beat.note, lastError: null }
        yield* seeds.save(next)
        return receipt(next, at, { result: null })
      }).pipe(spanNamed("seed.beat")),
    Act: ({ payload: { act } }) =>
      Effect.gen(function* () {
        const at = yield* isoNow
        const admitted = yield* admit(act, at)
        if ("refused" in admitted) return admitted.refused
        const seed = admitted.seed
        const delegation = delegationOf(seed.grants, act)
        if ("code" in delegation) return yield* refuse(seed, at, delegation)
        const owner = yield* beings.owner
        if (Option.isNone(owner)) {
          return yield* refuse(seed, at, {
            code: "bridge_refused",
            basis: "none",
            reason: "This node has no owner yet."
          })
        }
        const caller = { beingId: owner.value, storageScope: `seed:${did}`, source: SEED_SOURCE, skillNamespace: null }
        const outcome = yield* Effect.either(bridge.call(caller, seed.grants, delegation.method, delegation.args))
        if (outcome._tag === "Left") return yield* refuse(seed, at, bridgeRefusal(outcome.left))
        const next = { ...seed, acts: seed.acts + 1, lastError: null }
        yield* seeds.save(next)
        return receipt(next, at, { result: outcome.right })
      }).pipe(spanNamed("seed.act"))
  })
})

export const SeedLive = entityLayer(SeedEntity, build).pipe(Layer.provideMerge(SeedsRepository.Default))
