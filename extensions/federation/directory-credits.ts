/**
 * The federation's DirectoryCredits port over the market's ledger: a directory's registration
 * credits are money entering the node, booked like a starting credit (a movement from the mint,
 * reason `directory`, outside the wallet's lifetime earned), to the owner's wallet (opened first if
 * it never was). Runs inside the directory client's transaction, beside `creditsClaimed`.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { DirectoryCredits } from "./directory/client.ts"
import { Ledger } from "../market/ledger.ts"
import { MINT } from "../market/repositories/ledger-repository.ts"
import { BeingsRepository } from "../accounts/repositories/beings.ts"

export const DirectoryCreditsLive = Layer.effect(
  DirectoryCredits,
  Effect.gen(function* () {
    const beings = yield* BeingsRepository
    const ledger = yield* Ledger
    return {
      credit: (amount: number) =>
        Effect.gen(function* () {
          const owner = yield* beings.findOwner()
          if (Option.isNone(owner)) return false
          yield* ledger.open(owner.value.id)
          yield* ledger.move({ from: MINT, to: owner.value.id, amount, reasons: ["directory", "directory"], orderId: null, lifetime: false })
          return true
        }).pipe(
          // The mint always pays: an insufficient_credits here is a broken ledger, not a refusal.
          Effect.catchTag("Conflict", Effect.die),
          Effect.withSpan("federation.directoryCredit", { attributes: { amount } })
        )
    }
  })
).pipe(Layer.provide(Layer.mergeAll(BeingsRepository.Default, Ledger.Default)))
