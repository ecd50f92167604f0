/**
 * The hush gate every signal raise passes before it is written (behaviour.ts, one raise at a time
 * per being, so counting and deciding cannot interleave). `decide` is the rule, pure:
 *
 * - `system` always passes; `responsive` (an answer to the person's own act: a reminder they set,
 *   a reply) passes and does not count. Either is held only when its raiser asks for a later time.
 * - `proactive` (the node's own initiative): level `off` refuses it; over the daily cap it is
 *   refused, whatever its priority (urgent never overrides the cap); a snooze (`mutedUntil`) holds
 *   it until the snooze ends, quiet hours until the window's end. Held and raised nudges count
 *   against the cap of the local day; refused ones do not. Level `fewer` halves the cap (rounded
 *   up, so a cap of 1 stays 1).
 *
 * A refused signal is written (dismissed, for audit) and never published; a held one stays open,
 * unseen, until the scheduler releases it (extensions/desktop/signals.ts).
 */
import * as Effect from "effect/Effect"
import { nowMillis } from "../../kernel/time.ts"
import type { GateStamp, GateTrigger, HushSettings } from "./contract/hush.ts"
import type { HushRepository } from "./hush-repository.ts"
import { inWindow, localDayStart, localMinute, nextLocalMinute } from "./local-time.ts"
import { ProfileTimeZone } from "./contract/time-zone.ts"
import type { SignalsRepository } from "./signals-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export interface GateRequest {
  readonly beingId: string
  readonly trigger: GateTrigger
  /** A raise meant for later (a reminder): held until then whatever its trigger. */
  readonly holdUntil: string | null
}

export interface GateFacts {
  readonly now: number
  readonly timeZone: string
  readonly settings: HushSettings
  /** Proactive nudges raised or held since the local day began. */
  readonly usedToday: number
}

export const effectiveCap = (settings: HushSettings) =>
  settings.level === "fewer" ? Math.ceil(settings.dailyCap / 2) : settings.dailyCap

const clock = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    new Date(at)
  )

const stamper =
  (request: GateRequest, now: number) =>
  (fields: Pick<GateStamp, "decision" | "reason" | "key"> & Partial<GateStamp>): GateStamp => ({
    trigger: request.trigger,
    heldUntil: null,
    countedAgainst: null,
    at: new Date(now).toISOString(),
    ...fields
  })

/** The time a raise asked to wait for, when it is still ahead. */
const laterOf = (request: GateRequest, now: number) =>
  request.holdUntil !== null && Date.parse(request.holdUntil) > now ? request.holdUntil : null

/** A `system` or `responsive` raise's stamp: it needs none of the being's settings, zone or count. */
export const decideUnasked = (request: GateRequest, now: number): GateStamp => {
  const stamp = stamper(request, now)
  const later = laterOf(request, now)
  if (later !== null)
    return stamp({
      decision: "held",
      key: "scheduled",
      reason: "Held until the time it was set for.",
      heldUntil: later
    })
  return request.trigger === "system"
    ? stamp({ decision: "raised", key: "system", reason: "The node's own duty: it always passes." })
    : stamp({
        decision: "raised",
        key: "responsive",
        reason: "An answer to something you did: it passes and does not count."
      })
}

export const decide = (request: GateRequest, facts: GateFacts): GateStamp => {
  if (request.trigger !== "proactive") return decideUnasked(request, facts.now)
  const stamp = stamper(request, facts.now)
  const later = laterOf(request, facts.now)
  const { settings, now, timeZone } = facts
  const cap = effectiveCap(settings)
  if (settings.level === "off") {
    return stamp({
      decision: "refused",
      key: "level_off",
      reason: "Nudges are off.",
      countedAgainst: { used: facts.usedToday, cap }
    })
  }
  if (facts.usedToday >= cap) {
    return stamp({
      decision: "refused",
      key: "daily_cap",
      reason: `Today's ${cap} nudge${cap === 1 ? " was" : "s were"} already used.`,
      countedAgainst: { used: facts.usedToday, cap }
    })
  }
  const counted = { used: facts.usedToday + 1, cap }
  if (settings.mutedUntil !== null && Date.parse(settings.mutedUntil) > now) {
    const until = later !== null && later > settings.mutedUntil ? later : settings.mutedUntil
    return stamp({
      decision: "held",
      key: "muted",
      reason: "Nudges are snoozed.",
      heldUntil: until,
      countedAgainst: counted
    })
  }
  if (inWindow(localMinute(now, timeZone), settings.quietStart, settings.quietEnd)) {
    const end = new Date(nextLocalMinute(now, timeZone, settings.quietEnd)).toISOString()
    const until = later !== null && later > end ? later : end
    return stamp({
      decision: "held",
      key: "quiet_hours",
      reason: `It came in your quiet hours; it waits until ${clock(Date.parse(end), timeZone)}.`,
      heldUntil: until,
      countedAgainst: counted
    })
  }
  if (later !== null) {
    return stamp({
      decision: "held",
      key: "scheduled",
      reason: "Held until the time it was set for.",
      heldUntil: later,
      countedAgainst: counted
    })
  }
  return stamp({
    decision: "raised",
    key: "within_cap",
    reason: `Within today's limit (${counted.used} of ${cap}).`,
    countedAgainst: counted
  })
}

/** What the gate reads a proactive raise's facts from. */
export interface GateReads {
  readonly hush: HushRepository
  readonly signals: SignalsRepository
}

/**
 * Decides one raise against the being's settings, zone and today's count. The repositories come as arguments, not
 * through the context: providing them to each raise copied the fiber's whole context (a hundred services) a raise.
 */
export const gate = (request: GateRequest, { hush, signals }: GateReads) =>
  Effect.gen(function* () {
    const now = yield* nowMillis
    // Only a proactive raise is weighed against the being's settings, zone and count: the others are not read.
    if (request.trigger !== "proactive") return decideUnasked(request, now)
    const settings = yield* hush.settingsOf(request.beingId)
    const timeZone = yield* Effect.flatMap(ProfileTimeZone, (zone) => zone.of(request.beingId))
    const usedToday = yield* signals.countProactiveSince({
      beingId: request.beingId,
      since: new Date(localDayStart(now, timeZone)).toISOString()
    })
    return decide(request, { now, timeZone, settings, usedToday })
  }).pipe(spanNamed("being.gate"))
