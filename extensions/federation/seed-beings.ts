/**
 * The seed actor's `SeedBeings` port: a seed's being through the beings repository (so the
 * session cache hears of it), its soul, and its key row (the seed's own did, no secret, so the
 * start-up backfill never gives it a key the node holds). Runs inside the pairing's transaction.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes, randomInt } from "node:crypto"
import { SeedBeingRefused, SeedBeings } from "../../actors/seed/contract/seed-beings.ts"
import { KeysRepository } from "./repositories/keys-repository.ts"
import { SoulService } from "../souls/contract/soul-service.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { fnNamed } from "../../kernel/spans.ts"

const HANDLE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789"
const seedHandle = () =>
  `seed_${Array.from({ length: 10 }, () => HANDLE_ALPHABET[randomInt(HANDLE_ALPHABET.length)]).join("")}`

export const SeedBeingsLive = Layer.effect(
  SeedBeings,
  Effect.gen(function* () {
    const beings = yield* BeingRegistry
    const keys = yield* KeysRepository
    const souls = yield* SoulService

    const raise = fnNamed("federation.raiseSeedBeing")(function* (input: {
      readonly did: string
      readonly name: string
      readonly handle: string | null
      readonly at: string
    }) {
      const known = yield* keys.findBeingByDid(input.did)
      if (Option.isSome(known) && known.value.beingId !== null) {
        // A did paired before and unpaired since: its being stayed, and comes back.
        const being = yield* beings.findPublic(known.value.beingId)
        if (Option.isSome(being) && being.value.kind === "seed") return being.value.id
        return yield* new SeedBeingRefused({ error: "did_taken", message: "That did is a being of this node already." })
      }
      const id = randomBytes(12).toString("base64url")
      const handle = input.handle ?? seedHandle()
      if (!(yield* beings.insertSeed({ id, handle, displayName: input.name, createdAt: input.at }))) {
        return yield* new SeedBeingRefused({ error: "handle_taken", message: `The handle "${handle}" is taken.` })
      }
      yield* souls.ensure({ id, displayName: input.name })
      yield* keys.insertSeedKey({ did: input.did, beingId: id, createdAt: input.at })
      return id
    })

    return {
      raise,
      owner: Effect.map(
        beings.findOwner,
        Option.map((owner) => owner.id)
      )
    }
  })
).pipe(Layer.provide(KeysRepository.Default))
