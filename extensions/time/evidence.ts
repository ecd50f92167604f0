/**
 * "Why was I nudged": the gate's stamp, as written when it decided, and the evidence the raiser
 * named, looked up again now by table (no model): a to-do, an event or a project the being still
 * has reads with its current title; one deleted since reads as gone. Memories live in the twin's
 * store, reached through `MemoryEvidence` (contract/ports.ts; bound in extensions/twin/memory-evidence.ts; unbound, as
 * in a
 * test of the hush alone, a memory is not found).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { EvidenceItem, EvidenceRef, GateStamp, NudgeWhy } from "../../actors/being/contract/hush.ts"
import { SignalReads, type StoredGate } from "../../actors/being/contract/signal-reads.ts"
import { ProjectDirectory } from "../../actors/project/contract/project-directory.ts"
import { CalendarEventsRepository } from "./calendar-events-repository.ts"
import { TodosRepository } from "./todos-repository.ts"
import { NudgeNotFound } from "./contract/errors.ts"
import { MemoryEvidence, type FoundEvidence } from "./contract/ports.ts"
import { fnNamed } from "../../kernel/spans.ts"

export { MemoryEvidence, type FoundEvidence }

const SNIPPET = 200

const clip = (text: string): { readonly snippet?: string } => (text === "" ? {} : { snippet: text.slice(0, SNIPPET) })

const gone: Record<EvidenceRef["kind"], string> = {
  memory: "a memory since deleted",
  todo: "a to-do since deleted",
  event: "an event since deleted",
  project: "a project since deleted",
  unknown: "something unknown"
}

const triggers: Record<GateStamp["trigger"], string> = {
  proactive: "on the node's own initiative",
  responsive: "in answer to something you did",
  system: "as the node's duty"
}

const decisions: Record<GateStamp["decision"], string> = { raised: "Raised", held: "Held", refused: "Refused" }

const explain = (stamp: GateStamp, source: string) =>
  `${decisions[stamp.decision]} ${triggers[stamp.trigger]} (from ${source}): ${stamp.reason}`

const stampOf = ({ evidence: _evidence, ...stamp }: StoredGate): GateStamp => stamp

export class NudgeWhys extends Effect.Service<NudgeWhys>()("time/NudgeWhys", {
  effect: Effect.gen(function* () {
    const signals = yield* SignalReads
    const todos = yield* TodosRepository
    const events = yield* CalendarEventsRepository
    const projects = yield* ProjectDirectory
    const memories = yield* MemoryEvidence

    const lookup = (beingId: string, ref: EvidenceRef): Effect.Effect<Option.Option<FoundEvidence>> => {
      switch (ref.kind) {
        case "todo":
          return Effect.map(
            todos.find({ beingId, id: ref.id }),
            Option.map((todo) => ({ label: todo.title, ...clip(todo.notes) }))
          )
        case "event":
          return Effect.map(
            events.find({ beingId, id: ref.id }),
            Option.map((event) => ({ label: event.title, snippet: event.startAt }))
          )
        case "project":
          return Effect.map(
            projects.find(ref.id),
            Option.flatMap((project) =>
              project.ownerId === beingId
                ? Option.some({ label: project.title, ...clip(project.brief) })
                : Option.none()
            )
          )
        case "memory":
          return memories.find(beingId, ref.id)
        case "unknown":
          return Effect.succeed(Option.some({ label: ref.id }))
      }
    }

    const resolve = (beingId: string, ref: EvidenceRef) =>
      Effect.map(
        lookup(beingId, ref),
        Option.match({
          onNone: (): EvidenceItem => ({ id: ref.id, kind: ref.kind, label: gone[ref.kind], gone: true }),
          onSome: (found): EvidenceItem => ({ id: ref.id, kind: ref.kind, ...found, gone: false })
        })
      )

    const why = fnNamed("hush.why")(function* (beingId: string, signalId: string) {
      const found = yield* signals.findGated({ beingId, signalId })
      if (Option.isNone(found))
        return yield* Effect.fail(new NudgeNotFound({ message: "You have no nudge with that id." }))
      const signal = found.value
      if (signal.gate === null) {
        return {
          title: signal.title,
          because: "There is no record of why: it was raised before the hush gate kept one.",
          basedOn: [],
          evidence: [],
          source: signal.source,
          gate: null
        } satisfies NudgeWhy
      }
      const evidence = yield* Effect.forEach(signal.gate.evidence, (ref) => resolve(beingId, ref))
      return {
        title: signal.title,
        because: explain(signal.gate, signal.source),
        basedOn: evidence.map((item) => (item.gone ? `${item.kind}: deleted` : `${item.kind}: ${item.label}`)),
        evidence,
        source: signal.source,
        gate: stampOf(signal.gate)
      } satisfies NudgeWhy
    })

    return { why } as const
  }),
  dependencies: [TodosRepository.Default, CalendarEventsRepository.Default]
}) {}
