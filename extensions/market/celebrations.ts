/**
 * The celebration after a buy, on both desktops through the hush gate. The buyer's answers their
 * own act, so it is `responsive` (it shows at once, quiet hours or not); the seller's arrives
 * unasked, so it is `proactive` and may be held (docs/decisions.md, the trigger table).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Order } from "./contract/records.ts"
import { PurchaseSignals } from "./ports.ts"
import { Signals } from "../desktop/contract/signals.ts"
import { spanNamed } from "../../kernel/spans.ts"

const SOURCE = "market"

const credits = (n: number) => (n === 1 ? "1 credit" : `${n} credits`)

export const PurchaseSignalsLive = Layer.effect(
  PurchaseSignals,
  Effect.gen(function* () {
    const signals = yield* Signals
    const celebrate = (order: Order) =>
      Effect.all(
        [
          signals.raise(
            order.buyerId,
            {
              kind: "celebration",
              title: `You bought ${order.title}`.slice(0, 160),
              body: `Paid ${credits(order.priceCredits)}. It is yours now.`,
              options: [],
              priority: "normal",
              dueAt: null,
              action: null
            },
            SOURCE,
            "responsive"
          ),
          signals.raise(
            order.sellerId,
            {
              kind: "celebration",
              title: `You sold ${order.title}`.slice(0, 160),
              body: `Earned ${credits(order.priceCredits)}.`,
              options: [],
              priority: "normal",
              dueAt: null,
              action: null
            },
            SOURCE,
            "proactive"
          )
        ],
        { concurrency: 2, mode: "either" }
      ).pipe(
        Effect.tap((outcomes) =>
          Effect.forEach(outcomes, (outcome) =>
            outcome._tag === "Left"
              ? Effect.logWarning("market: a celebration was not raised", outcome.left.message)
              : Effect.void
          )
        ),
        Effect.asVoid,
        spanNamed("market.celebrate")
      )
    return { celebrate }
  })
)
