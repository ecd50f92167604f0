/**
 * The node's own key and every being's. The node key is made once, the first time the node runs
 * with federation, and read back ever after (docs/federation.md "Keys at rest"); a being's key
 * is made at start for every being without one (those that existed before federation) and
 * otherwise the first time its did is needed. A key row is never overwritten: when two makers
 * race, both read back the one that was written first.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { fromBase64Url, toBase64Url } from "./wire/encoding.ts"
import { keyPairOf, newKeyPair, type KeyPair } from "./wire/did-key.ts"
import { boundedCache } from "./wire/key-objects.ts"
import { KeysRepository, type StoredKey } from "./repositories/keys-repository.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** Pairs already derived, by stored secret: a key row is never overwritten, and deriving one costs a key export. */
const derived = boundedCache<KeyPair>(1024)

const pairOf = (stored: StoredKey): KeyPair => {
  const secret = stored.secret
  const seed = secret === null ? null : fromBase64Url(secret)
  if (secret === null || seed === null || seed.length !== 32)
    throw new Error(`the key of ${stored.did} has no usable secret`)
  return derived(secret, () => keyPairOf(seed))
}

export interface BeingIdentity extends KeyPair {
  readonly beingId: string
  readonly handle: string
}

export class Identities extends Effect.Service<Identities>()("federation/Identities", {
  dependencies: [KeysRepository.Default],
  scoped: Effect.gen(function* () {
    const keys = yield* KeysRepository
    const now = () => new Date().toISOString()

    const makeNodeKey = Effect.gen(function* () {
      const fresh = newKeyPair()
      yield* keys.insertNode({ did: fresh.did, secret: toBase64Url(fresh.secretKey), createdAt: now() })
      const stored = yield* keys.findNode()
      return pairOf(Option.getOrThrow(stored))
    })
    const node: KeyPair = yield* Effect.flatMap(
      keys.findNode(),
      Option.match({
        onSome: (stored) => Effect.sync(() => pairOf(stored)),
        onNone: () => makeNodeKey
      })
    )

    const makeBeingKey = (beingId: string) => {
      const fresh = newKeyPair()
      return keys.insertForBeing({ did: fresh.did, beingId, secret: toBase64Url(fresh.secretKey), createdAt: now() })
    }

    /** A being's key, made now if it has none; None when there is no such being. */
    const ofBeing = fnNamed("federation.beingIdentity")(function* (beingId: string) {
      let stored = yield* keys.findByBeing(beingId)
      if (Option.isNone(stored)) {
        yield* makeBeingKey(beingId)
        stored = yield* keys.findByBeing(beingId)
      }
      return Option.map(stored, (found): BeingIdentity => ({ ...pairOf(found), beingId, handle: found.handle }))
    })

    /** Gives every being without a key its key; answers how many were given one. */
    const backfill = fnNamed("federation.keysForEveryBeing")(function* () {
      const missing = yield* keys.beingsWithoutKey()
      yield* Effect.forEach(missing, ({ id }) => makeBeingKey(id), { discard: true })
      if (missing.length > 0) yield* Effect.logDebug(`Gave ${missing.length} being(s) their federation key`)
      return missing.length
    })
    yield* backfill()

    /**
     * The being on this node that a did names, if any. A did not found may be a being made since
     * the start that nobody asked the key of yet: those are given theirs first.
     */
    const beingOfDid = fnNamed("federation.beingOfDid")(function* (did: string) {
      let found = yield* keys.findBeingByDid(did)
      if (Option.isNone(found) && (yield* backfill()) > 0) found = yield* keys.findBeingByDid(did)
      return Option.map(found, (being) => ({
        beingId: being.beingId ?? "",
        handle: being.handle,
        seed: being.kind === "seed"
      }))
    })

    return { node, ofBeing, beingOfDid } as const
  })
}) {}
