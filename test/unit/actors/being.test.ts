/**
 * The being actor on test layers: its entity layer (which brings its own tables' repositories)
 * over an in-memory SQLite, sent messages through `Entity.makeTestClient`, no HTTP and no runner.
 */
import * as Entity from "@effect/cluster/Entity"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import { SignalActionsLive } from "../../../actors/being/actions.ts"
import { BeingLive } from "../../../actors/being/behaviour.ts"
import { SignalDeliveriesLive } from "../../../actors/being/deliveries.ts"
import { SignalInput } from "../../../actors/being/contract/signal.ts"
import { Being } from "../../../actors/being/protocol.ts"
import { EventBus } from "../../../kernel/events.ts"
import { EventBusLive } from "../../../host/events.ts"
import { migrations } from "../../../host/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { Settings } from "../../../kernel/settings.ts"

const infrastructure = Layer.mergeAll(
  SignalActionsLive,
  SignalDeliveriesLive,
  EventBusLive,
  ShardingConfig.layerDefaults
).pipe(Layer.provideMerge(databaseLayer(migrations, { filename: ":memory:" })), Layer.provide(Settings.layerWith({})))

const question = Schema.decodeSync(SignalInput)({
  kind: "decision",
  title: "Send the draft?",
  options: [
    { id: "yes", label: "Send it" },
    { id: "no", label: "Not yet" }
  ]
})

describe("the being actor", () => {
  it.scoped("raises a signal, answers it once, and publishes each change to the being", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`INSERT INTO beings (id, handle, display_name, created_at) VALUES ('ada', 'ada', 'Ada', '2030-01-01T00:00:00.000Z')`
      const events = yield* Effect.flatMap(EventBus, (bus) => bus.subscribe)
      const ada = yield* Effect.flatMap(Entity.makeTestClient(Being, BeingLive), (client) => client("ada"))

      const raised = yield* ada.RaiseSignal({
        input: question,
        source: "owner",
        trigger: "system",
        holdUntil: null,
        evidence: []
      })
      expect(raised).toMatchObject({
        delivered: true,
        signal: { beingId: "ada", status: "open", title: "Send the draft?" }
      })
      const answered = yield* ada.AnswerSignal({ signalId: raised.signal.id, optionId: "yes" })
      expect(answered).toMatchObject({ status: "answered", answer: "yes", options: question.options })
      const again = yield* Effect.flip(ada.AnswerSignal({ signalId: raised.signal.id, optionId: "no" }))
      expect(again).toMatchObject({ _tag: "SignalClosed", status: "answered" })

      const published = yield* Queue.takeAll(events)
      expect([...published].map(({ audience, event }) => [audience, event.type])).toEqual([
        [{ kind: "being", beingId: "ada" }, "signal.created"],
        [{ kind: "being", beingId: "ada" }, "signal.updated"]
      ])
      const stored = yield* sql<{ status: string; answer: string }>`SELECT status, answer FROM signals`
      expect(stored).toEqual([{ status: "answered", answer: "yes" }])
    }).pipe(Effect.provide(infrastructure))
  )
})
