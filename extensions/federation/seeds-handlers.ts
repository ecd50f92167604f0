/**
 * The seed routes: the owner's pairings (each change through the seed's `Seeds` tag, a message to
 * that seed's actor, so an edit never interleaves with a beat or an act) and the wire routes a
 * paired device calls. A wire document climbs the ladder of docs/federation.md "Seeds": its shape,
 * audience and signature here (extensions/federation/seed-checks.ts), whether the did is paired at
 * all here too (an unknown address never wakes an actor), then freshness and the act in the seed's actor.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Seeds } from "../../actors/seed/contract/seeds.ts"
import { SEED_PROTOCOL, SignedSeedAct, SignedSeedBeat, type SeedReceipt } from "./contract/seeds.ts"
import { NodeDocuments } from "./documents.ts"
import { checkSeedDocument, type EarlyRefusal } from "./seed-checks.ts"
import { OwnNode, SeedAlreadyPaired, SeedDidTaken, SeedHandleTaken, SeedNotFound } from "./contract/errors.ts"
import type { ActorBusy } from "../../kernel/contract/actor-errors.ts"
import { requireOwner } from "../accounts/contract/owner.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { FederationSeedWireApi, FederationSeedsApi } from "./contract/seeds-api.ts"
import { federationServices } from "./feature.ts"

const noSuchSeed = () => new SeedNotFound({ message: "No seed paired with that did." })
const UNPAIRED = "This node has not paired that address."

const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

/** A refusal before the seed's actor: nothing about any seed in it (seq 0, no nonce). */
const early = (refusal: EarlyRefusal) =>
  Effect.map(
    isoNow,
    (at): SeedReceipt => ({
      accepted: false,
      code: refusal.code,
      reason: refusal.reason,
      basis: "none",
      seq: 0,
      nonce: null,
      at,
      result: null
    })
  )

const ownerRoutes = HttpApiBuilder.group(apiOf(FederationSeedsApi), "federationSeeds", (handlers) =>
  Effect.gen(function* () {
    const seeds = yield* Seeds
    const documents = yield* NodeDocuments
    const owner = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.zipRight(requireOwner, self)

    return handlers
      .handle("listSeeds", () => owner(seeds.list))
      .handle("pairSeed", ({ payload }) =>
        owner(
          Effect.gen(function* () {
            if (payload.did === documents.nodeDid) {
              return yield* Effect.fail(new OwnNode({ message: "That did is this node's own." }))
            }
            return yield* seeds
              .pair(payload.did, {
                name: payload.name,
                handle: payload.handle ?? null,
                grants: payload.grants ?? []
              })
              .pipe(
                Effect.catchTags({
                  SeedExists: () =>
                    Effect.fail(new SeedAlreadyPaired({ message: "That seed is paired already; edit it." })),
                  SeedBeingRefused: (refused) =>
                    Effect.fail(
                      refused.error === "handle_taken"
                        ? new SeedHandleTaken({ message: refused.message })
                        : new SeedDidTaken({ message: refused.message })
                    )
                })
              )
          })
        )
      )
      .handle("updateSeed", ({ path, payload }) =>
        owner(seeds.update(path.id, payload).pipe(Effect.catchTag("SeedMissing", () => Effect.fail(noSuchSeed()))))
      )
      .handle("removeSeed", ({ path }) =>
        owner(
          Effect.gen(function* () {
            if (!(yield* seeds.paired(path.id))) return yield* Effect.fail(noSuchSeed())
            const beingId = yield* seeds.remove(path.id)
            if (beingId === null) return yield* Effect.fail(noSuchSeed())
            return { did: path.id, removed: true, beingId }
          })
        )
      )
  })
)

const wireRoutes = HttpApiBuilder.group(apiOf(FederationSeedWireApi), "federationSeedWire", (handlers) =>
  Effect.gen(function* () {
    const seeds = yield* Seeds
    const nodeDid = (yield* NodeDocuments).nodeDid
    /** A busy actor is a refusal in the receipt too: these routes always answer 200. */
    const orBusy = (self: Effect.Effect<SeedReceipt, ActorBusy>) =>
      self.pipe(
        Effect.catchTag("ActorBusy", () =>
          early({ code: "busy", reason: "This seed's actor is busy; try again in a moment." })
        )
      )

    return handlers
      .handle("knock", ({ payload }) =>
        Effect.gen(function* () {
          const refused = (reason: string) => ({
            v: 1 as const,
            protocol: SEED_PROTOCOL,
            node: nodeDid,
            nonce: null,
            seq: 0,
            grants: [],
            accepted: false,
            reason
          })
          if (payload.protocol !== SEED_PROTOCOL) return refused(`This node speaks seed protocol ${SEED_PROTOCOL}.`)
          // Unpaired and blocked alike learn nothing: a knock is unsigned, so anyone may send it.
          if (!(yield* seeds.paired(payload.did))) return refused(UNPAIRED)
          const standing = yield* seeds.knock(payload.did)
          if (standing === null) return refused(UNPAIRED)
          return {
            v: 1 as const,
            protocol: SEED_PROTOCOL,
            node: nodeDid,
            ...standing,
            accepted: true,
            reason: "Paired."
          }
        })
      )
      .handle("beat", ({ payload }) =>
        Effect.gen(function* () {
          const checked = checkSeedDocument(SignedSeedBeat, "svc.seed.beat", payload, nodeDid)
          if ("code" in checked) return yield* early(checked)
          if (!(yield* seeds.paired(checked.payload.did)))
            return yield* early({ code: "unknown_seed", reason: UNPAIRED })
          return yield* orBusy(seeds.beat(checked.payload.did, checked.payload))
        })
      )
      .handle("act", ({ payload }) =>
        Effect.gen(function* () {
          const checked = checkSeedDocument(SignedSeedAct, "svc.seed.act", payload, nodeDid)
          if ("code" in checked) return yield* early(checked)
          if (!(yield* seeds.paired(checked.payload.did)))
            return yield* early({ code: "unknown_seed", reason: UNPAIRED })
          return yield* orBusy(seeds.act(checked.payload.did, checked.payload))
        })
      )
  })
)

/** The seeds' actor and its `Seeds` come from the node (actors/seed/feature.ts), as does the bridge it acts through. */
export const FederationSeedsHandlers = Layer.mergeAll(ownerRoutes, wireRoutes).pipe(Layer.provide(federationServices))
