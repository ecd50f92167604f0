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
import { Market } from "../market/contract/market.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const DirectoryCreditsLive = Layer.effect(
  DirectoryCredits,
  Effect.gen(function* () {
    const beings = yield* BeingRegistry
    const market = yield* Market
    return {
      credit: (amount: number) =>
        Effect.gen(function* () {
          const owner = yield* beings.findOwner
          if (Option.isNone(owner)) return false
          yield* market.creditFromMint(owner.value.id, amount, "directory")
          return true
        }).pipe(spanNamed("federation.directoryCredit", { attributes: { amount } }))
    }
  })
)
