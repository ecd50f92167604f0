/** The being's `SignalReads` (contract/signal-reads.ts) over its signals' table. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SignalReads } from "./contract/signal-reads.ts"
import { SignalsRepository } from "./signals-repository.ts"

export const SignalReadsLive = Layer.effect(
  SignalReads,
  Effect.map(SignalsRepository, (signals) => ({
    list: signals.list,
    openSummary: signals.openSummary,
    heldCount: signals.heldCount,
    findGated: signals.findGated,
    heldProactive: signals.heldProactive,
    openDueBetween: signals.openDueBetween
  }))
).pipe(Layer.provide(SignalsRepository.Default))
