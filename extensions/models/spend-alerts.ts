/**
 * How a spend-ceiling refusal reaches the owner: an `alert` signal on their desktop. Models only
 * needs the raise path, so it depends on this small tag and the host binds it to the desktop's
 * Signals (extensions/models/spend-alert-signals.ts); actors and tests can bind it to what they observe.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface SpendAlert {
  /** At most 160 characters (a signal's title). */
  readonly title: string
  /** At most 4000 characters (a signal's body). */
  readonly body: string
}

export interface SpendAlertsShape {
  readonly raise: (alert: SpendAlert) => Effect.Effect<void>
}

export class SpendAlerts extends Context.Tag("models/SpendAlerts")<SpendAlerts, SpendAlertsShape>() {}
