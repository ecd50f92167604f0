/** The seed's `Seeds` (contract/seeds.ts): each change a message to that seed's actor; the list from its table. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { refusedWhenBusy } from "../../kernel/actors/busy.ts"
import { Seeds } from "./contract/seeds.ts"
import { SeedEntity } from "./protocol.ts"
import { pairingOf, SeedsRepository } from "./seeds-repository.ts"

const busy = refusedWhenBusy("This seed")

export const SeedsLive = Layer.effect(
  Seeds,
  Effect.gen(function* () {
    const seed = yield* SeedEntity.client
    const seeds = yield* SeedsRepository
    return {
      list: Effect.map(seeds.list(), (all) => all.map(pairingOf)),
      paired: (did) => Effect.map(seeds.find(did), Option.isSome),
      pair: (did, pairing) => busy(seed(did).Pair(pairing)),
      update: (did, update) => busy(seed(did).Update(update)),
      remove: (did) => busy(seed(did).Remove()),
      knock: (did) => seed(did).Knock().pipe(Effect.orDie),
      beat: (did, beat) => busy(seed(did).Beat({ beat })),
      act: (did, act) => busy(seed(did).Act({ act }))
    }
  })
)
