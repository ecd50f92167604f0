/**
 * GET /api/desktop/now: what the desktop shows at a glance. The greeting follows the viewer's
 * local time: the browser sends its time zone (beings have no stored zone yet), else the
 * node's own zone is used. Later issues add their parts (agenda, to-dos, mood) beside these;
 * clients ignore fields they do not know.
 */
import * as Effect from "effect/Effect"
import { nowMillis } from "../../kernel/time.ts"
import * as Option from "effect/Option"
import { NoSuchAccount } from "./contract/errors.ts"
import type { BeingRegistryShape } from "../accounts/contract/being-registry.ts"
import type { NowResponse } from "./contract/records.ts"
import type { SignalsShape } from "./contract/signals.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** How many open signals the summary carries. */
export const NOW_TOP_SIGNALS = 3

export const nodeTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone

export const localHour = (at: Date, timeZone: string): number =>
  Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "numeric", hourCycle: "h23" }).format(at))

/** Morning from 05:00, afternoon from 12:00, evening from 18:00 until the next morning. */
export const greetingFor = (hour: number, name: string): string =>
  `${hour >= 5 && hour < 12 ? "Good morning" : hour >= 12 && hour < 18 ? "Good afternoon" : "Good evening"}, ${name}`

export const now = (
  accounts: BeingRegistryShape,
  signals: SignalsShape,
  beingId: string,
  timeZone: string | undefined
) =>
  Effect.gen(function* () {
    const found = yield* accounts.findHuman(beingId)
    if (Option.isNone(found)) return yield* new NoSuchAccount({ message: "There is no account with that id." })
    const being = found.value
    const openSignals = yield* signals.openSummary(beingId, NOW_TOP_SIGNALS)
    const heldNudges = yield* signals.heldCount(beingId)
    const at = new Date(yield* nowMillis)
    const zone = timeZone ?? nodeTimeZone()
    return {
      serverTime: at.toISOString(),
      timeZone: zone,
      greeting: greetingFor(localHour(at, zone), being.displayName),
      being: { id: being.id, displayName: being.displayName },
      openSignals,
      heldNudges
    } satisfies NowResponse
  }).pipe(spanNamed("desktop.now"))
