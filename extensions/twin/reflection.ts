/**
 * Reflection: every ten minutes (on Effect's Clock), each being with at least three memories its
 * reflection has not read gets one pass; `POST /api/twin/reflect` forces a pass whatever the
 * count. A pass gives the cheap tier the being's newest unread memories (or, forced with none
 * unread, its newest) and asks for a thought, at most three insights and at most two widget
 * suggestions (structured output, structured.ts). The thought is written as a `thought`
 * activity; each insight is raised as an insight signal through the desktop's one path (so the
 * hush gate, as a proactive signal); each widget is published as `widget.suggest`. The pass then
 * marks the memories read. A being with no memory at all has nothing to reflect on: no call.
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import * as Schema from "effect/Schema"
import { nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import { Models } from "../models/contract/models.ts"
import { Activity } from "./activity.ts"
import { WidgetSuggestion, type ReflectResult } from "./contract/records.ts"
import { InsightSignals, TwinBindings } from "./ports.ts"
import { MemoriesRepository } from "./repositories/memories-repository.ts"
import { ReflectionsRepository } from "./repositories/reflections-repository.ts"
import { askStructured } from "./structured.ts"
import { runSingleton } from "../../kernel/actors/singletons.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const reflectionIntervalMs = 10 * 60_000
/** Memories unread since the last pass that make a scheduled pass worth its call. */
export const reflectionMinNew = 3
/** The newest memories one pass reads. */
const readAtMost = 30
/** The newest memories a pass read that each insight names as its evidence ("why was I nudged"). */
const insightEvidence = 10

const Reflection = Schema.Struct({
  thought: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  insights: Schema.Array(
    Schema.Struct({
      title: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(160)),
      body: Schema.String.pipe(Schema.maxLength(1000))
    })
  ).pipe(Schema.maxItems(3)),
  widgets: Schema.Array(WidgetSuggestion).pipe(Schema.maxItems(2))
})

const reflectionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["thought", "insights", "widgets"],
  properties: {
    thought: { type: "string", minLength: 1, maxLength: 500 },
    insights: {
      type: "array",
      maxItems: 3,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["title", "body"],
        properties: {
          title: { type: "string", minLength: 1, maxLength: 160 },
          body: { type: "string", maxLength: 1000 }
        }
      }
    },
    widgets: {
      type: "array",
      maxItems: 2,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["widgetType", "reason"],
        properties: {
          widgetType: { type: "string", pattern: "^[a-z0-9_-]+(\\.[a-z0-9_-]+)+$" },
          reason: { type: "string", minLength: 1, maxLength: 200 }
        }
      }
    }
  }
} as const

const system =
  "You are the reflective side of one person's digital twin. Read what they recently remembered and answer with " +
  "one short thought (what stands out, in the second person), at most three insights worth a nudge on their " +
  "desktop (a title and a body; none when nothing deserves one), and at most two desktop widgets that would help " +
  "(a widget type such as core.todos or weather.forecast, and why). Prefer fewer, better nudges."

const nothing: ReflectResult = { ran: false, signals: [], widgets: [], thought: null }

export class Reflections extends Effect.Service<Reflections>()("twin/Reflections", {
  dependencies: [MemoriesRepository.Default, ReflectionsRepository.Default, Activity.Default],
  scoped: Effect.gen(function* () {
    const models = yield* Models
    const memories = yield* MemoriesRepository
    const reflections = yield* ReflectionsRepository
    const activity = yield* Activity
    const insights = yield* InsightSignals
    const bindings = yield* TwinBindings
    const bus = yield* EventBus

    /** One pass for the being; `force`: even with fewer than three unread memories. */
    const reflect = (beingId: string, options: { readonly force: boolean }) =>
      Effect.gen(function* () {
        const lastSeq = yield* reflections.lastSeq(beingId)
        const unread = yield* memories.newerThan({ beingId, seq: lastSeq, limit: readAtMost })
        if (!options.force && unread.length < reflectionMinNew) return nothing
        const read = unread.length > 0 ? unread : yield* memories.newerThan({ beingId, seq: 0, limit: readAtMost })
        if (read.length === 0) return nothing

        const listed = read
          .map((memory) => `- (${memory.kind}, ${memory.createdAt.slice(0, 10)}) ${memory.content}`)
          .join("\n")
        const answer = yield* askStructured(models, {
          schema: Reflection,
          jsonSchema: { name: "reflection", schema: reflectionSchema },
          messages: [
            { role: "system", content: system },
            { role: "user", content: `What I remembered lately:\n${listed}` }
          ],
          purpose: "twin reflection",
          beingId,
          otherwise: "nothing was reflected"
        })

        yield* activity.record(beingId, "thought", answer.thought)
        const signals: Array<string> = []
        for (const insight of answer.insights) {
          const raised = yield* insights.raise(
            beingId,
            insight,
            read.slice(0, insightEvidence).map((memory) => memory.id)
          )
          if ("signalId" in raised) signals.push(raised.signalId)
          else yield* Effect.logWarning(`A reflection insight was not raised: ${raised.refused}`)
        }
        for (const widget of answer.widgets) {
          yield* bus.publish(
            { kind: "being", beingId },
            { type: "widget.suggest", widgetType: widget.widgetType, reason: widget.reason }
          )
        }
        yield* reflections.save({
          beingId,
          lastSeq: Math.max(lastSeq, ...read.map((memory) => memory.seq)),
          at: yield* nowIso
        })
        return { ran: true, signals, widgets: answer.widgets, thought: answer.thought } satisfies ReflectResult
      }).pipe(spanNamed("twin.reflect"))

    /** The scheduled round: every being due, one after another; one being's failure does not stop the others. */
    const round = Effect.gen(function* () {
      if (!bindings.cheapAvailable) return 0
      const due = yield* reflections.due(reflectionMinNew)
      let ran = 0
      for (const { beingId } of due) {
        const result = yield* reflect(beingId, { force: false }).pipe(
          Effect.catchAll((failure) =>
            Effect.as(Effect.logWarning(`Reflection for a being did not run: ${failure.message}`), nothing)
          )
        )
        if (result.ran) ran += 1
      }
      return ran
    }).pipe(spanNamed("twin.reflectionRound"))

    // Each round's count of passes run is published to `rounds`: how a test waits for one.
    const rounds = yield* Effect.acquireRelease(PubSub.unbounded<number>(), PubSub.shutdown)
    const tick = round.pipe(
      Effect.tap((ran) => PubSub.publish(rounds, ran)),
      Effect.catchAllCause((cause) => Effect.logError("The reflection round failed", cause))
    )
    yield* runSingleton("twin.reflection", Effect.forever(Effect.zipRight(Effect.sleep(reflectionIntervalMs), tick)))

    return { reflect, round, rounds: PubSub.subscribe(rounds) } as const
  })
}) {}
