/**
 * The three spend ceilings, checked before every model call: the call's own estimated cost
 * (`SPEND_MAX_CALL_USD`), the project's spend so far (`SPEND_MAX_PROJECT_USD`) and the node's spend
 * this UTC day (`SPEND_MAX_DAY_USD`). A refusal fails the call and raises an alert on the owner's
 * desktop; the same refusal is not raised again within an hour, so a busy run does not flood it.
 * A local call costs nothing, so no ceiling refuses it.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { spanNamed } from "../../kernel/spans.ts"
import { ModelSettings } from "./settings.ts"
import { type Ceiling, SpendCeilingReached } from "./contract/errors.ts"
import { LlmLedger, utcDayOf } from "./ledger.ts"
import type { Pricing } from "./contract/records.ts"
import { SpendAlerts } from "./spend-alerts.ts"

export interface PlannedCall {
  readonly tier: string
  readonly model: string
  readonly purpose: string
  readonly projectId: string | null
  readonly estimateUsd: number
  readonly pricing: Pricing
}

const alertQuietMs = 60 * 60 * 1000

const inCheckSpan = spanNamed("models.checkCeilings")

/** Dollars as a person reads them: cents for sums, more digits for the fractions a single call costs. */
export const formatUsd = (usd: number): string =>
  usd === 0 || usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`

export class SpendCeilings extends Effect.Service<SpendCeilings>()("models/SpendCeilings", {
  dependencies: [LlmLedger.Default],
  effect: Effect.gen(function* () {
    const settings = yield* ModelSettings
    const ledger = yield* LlmLedger
    const alerts = yield* SpendAlerts
    const lastRaised = new Map<string, number>()

    const refuse = (
      key: string,
      ceiling: Ceiling,
      planned: PlannedCall,
      limitUsd: number,
      spentUsd: number,
      message: string
    ) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const last = lastRaised.get(key)
        if (last === undefined || now - last >= alertQuietMs) {
          lastRaised.set(key, now)
          yield* alerts.raise({
            title: "Spend ceiling reached: a model call was refused",
            body: `${message}\n\nRefused: a ${planned.tier} call to ${planned.model} for "${planned.purpose.slice(0, 200)}".`
          })
        }
        return yield* new SpendCeilingReached({
          ceiling,
          limitUsd,
          spentUsd,
          estimateUsd: planned.estimateUsd,
          message
        })
      })

    /** Spent money reaches a ceiling when it is at it already, or this call would take it past. */
    const over = (spent: number, estimate: number, limit: number) => spent >= limit || spent + estimate > limit

    const check = (planned: PlannedCall): Effect.Effect<void, SpendCeilingReached> =>
      Effect.gen(function* () {
        if (planned.pricing === "local") return
        const estimate = planned.estimateUsd

        if (estimate > settings.spendMaxCallUsd) {
          return yield* refuse(
            `call:${planned.tier}:${planned.purpose}`,
            "call",
            planned,
            settings.spendMaxCallUsd,
            0,
            `This call is estimated at ${formatUsd(estimate)}, above the spend ceiling of ${formatUsd(settings.spendMaxCallUsd)} ` +
              `for one call (SPEND_MAX_CALL_USD). Shorten what is sent, or raise the ceiling.`
          )
        }

        // Both sums in one read, weighed in the same order as before: the project's ceiling, then the day's.
        const spent = yield* ledger.spentForCeilings(planned.projectId)
        if (planned.projectId !== null && over(spent.project, estimate, settings.spendMaxProjectUsd)) {
          return yield* refuse(
            `project:${planned.projectId}`,
            "project",
            planned,
            settings.spendMaxProjectUsd,
            spent.project,
            `The project's spend ceiling of ${formatUsd(settings.spendMaxProjectUsd)} is reached: ${formatUsd(spent.project)} spent, ` +
              `this call is estimated at ${formatUsd(estimate)}. Raise SPEND_MAX_PROJECT_USD to let the project go on.`
          )
        }

        const spentToday = spent.day
        if (over(spentToday, estimate, settings.spendMaxDayUsd)) {
          const day = utcDayOf(yield* Clock.currentTimeMillis)
          return yield* refuse(
            `day:${day.start}`,
            "day",
            planned,
            settings.spendMaxDayUsd,
            spentToday,
            `The day's spend ceiling of ${formatUsd(settings.spendMaxDayUsd)} is reached: ${formatUsd(spentToday)} spent today, ` +
              `this call is estimated at ${formatUsd(estimate)}. Model calls resume at 00:00 UTC, or raise SPEND_MAX_DAY_USD.`
          )
        }
      }).pipe(inCheckSpan)

    return { check } as const
  })
}) {}
