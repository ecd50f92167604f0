/**
 * GET /api/twin/calendar: the being's event occurrences in the range, and every open due-dated
 * signal in it that no event links (a reminder shows once, as its event), soonest first.
 */
import * as Effect from "effect/Effect"
import type { SignalReadsShape } from "../../actors/being/contract/signal-reads.ts"
import type { Signal } from "../../actors/being/contract/signal.ts"
import type { Calendar } from "./calendar.ts"
import type { AgendaEntry } from "./contract/calendar.ts"
import { spanNamed } from "../../kernel/spans.ts"

const signalEntry = (signal: Signal & { readonly dueAt: string }): AgendaEntry => ({
  id: signal.id,
  title: signal.title,
  body: signal.body,
  startAt: signal.dueAt,
  endAt: null,
  allDay: false,
  origin: "signal",
  signalId: signal.id,
  eventId: null
})

export const agenda = (calendar: Calendar, signals: SignalReadsShape, beingId: string, from: string, to: string) =>
  Effect.gen(function* () {
    const { entries, linkedSignalIds } = yield* calendar.agenda(beingId, from, to)
    const due = yield* signals.openDueBetween({
      beingId,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString()
    })
    const unlinked = due.flatMap((signal) =>
      signal.dueAt === null || linkedSignalIds.has(signal.id) ? [] : [signalEntry({ ...signal, dueAt: signal.dueAt })]
    )
    return [...entries, ...unlinked].sort((a, b) => a.startAt.localeCompare(b.startAt) || a.id.localeCompare(b.id))
  }).pipe(spanNamed("calendar.agendaWithSignals"))
