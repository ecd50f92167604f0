/**
 * Signals on PostgreSQL, as a user sees them: the owner raises through the route, lists by status
 * newest first (signals raised in the same millisecond in the order raised), and an answer is
 * single-use: of 20 concurrent answers one wins, the others are 409, the action runs once.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { beforeAll, describe, expect, it } from "vitest"
import { SignalActions } from "../../actors/being/contract/signal-actions.ts"
import { SignalInput, type SignalStatus } from "../../actors/being/contract/signal.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode } from "../support/live.ts"
import { attempt, type Client, refused, run } from "../support/node.ts"
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"

const context = nodeOnPostgresWithOwner()
const decodeInput = Schema.decodeUnknownSync(SignalInput)

const signalsOf = (client: Client, status: SignalStatus = "open", limit = 100) =>
  run(client.api.desktop.listSignals({ urlParams: { status, limit, offset: 0 } }))

const raiseByRoute = (client: Client, input: Record<string, unknown>) =>
  run(client.api.desktop.raiseSignal({ payload: decodeInput(input) }))

const answerSignal = (client: Client, id: string, optionId: string) =>
  client.api.desktop.answerSignal({ path: { id }, payload: { optionId } })

let actionRuns = 0
beforeAll(async () => {
  await inNode(
    context.node,
    Effect.flatMap(SignalActions, (actions) =>
      actions.register("test.count", () =>
        Effect.sync(() => {
          actionRuns += 1
          return { runs: actionRuns }
        })
      )
    )
  )
})

describe("signals on PostgreSQL", () => {
  it("raises through the route and lists by status, newest first", async () => {
    const owner = context.owner.client
    const first = (await raiseByRoute(owner, { title: "First" })).signal
    const second = (await raiseByRoute(owner, { title: "Second", priority: "urgent" })).signal
    expect(second).toMatchObject({
      beingId: context.owner.being.id,
      title: "Second",
      priority: "urgent",
      status: "open"
    })
    expect((await signalsOf(owner)).map((s) => s.id)).toEqual([second.id, first.id])
    await run(owner.api.desktop.dismissSignal({ path: { id: first.id } }))
    expect((await signalsOf(owner)).map((s) => s.id)).toEqual([second.id])
    expect((await signalsOf(owner, "dismissed")).map((s) => s.id)).toEqual([first.id])
    expect((await signalsOf(owner, "open", 1)).map((s) => s.id)).toEqual([second.id])
  })

  it("keeps the order raised among signals of the same millisecond", async () => {
    const beingId = context.owner.being.id
    // One after another inside the node: most land in the same millisecond.
    const raised = await inNode(
      context.node,
      Effect.flatMap(Signals, (signals) =>
        Effect.forEach(
          Array.from({ length: 8 }, (_, n) => `Burst ${n}`),
          (title) =>
            Effect.map(signals.raise(beingId, decodeInput({ title }), "test", "system"), (answer) => answer.signal)
        )
      )
    )
    const listed = (await signalsOf(context.owner.client)).filter((s) => s.title.startsWith("Burst "))
    expect(listed.map((s) => s.title)).toEqual(raised.map((s) => s.title).reverse())
  })

  it("20 concurrent answers to one signal: exactly one 200, 19 × 409, and its action ran once", async () => {
    const { signal } = await raiseByRoute(context.owner.client, {
      kind: "decision",
      title: "Run the counted action?",
      options: [
        { id: "yes", label: "Do it" },
        { id: "no", label: "No" }
      ]
    })
    // The route raises no actions (only the node's features do): this one is raised with one.
    const withAction = await inNode(
      context.node,
      Effect.flatMap(Signals, (signals) =>
        signals.raise(
          context.owner.being.id,
          decodeInput({
            kind: "decision",
            title: "Counted",
            options: [
              { id: "yes", label: "Do it" },
              { id: "no", label: "No" }
            ],
            action: { kind: "test.count" }
          }),
          "test",
          "system"
        )
      )
    )
    for (const target of [signal, withAction.signal]) {
      const runsBefore = actionRuns
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          attempt(answerSignal(context.owner.client, target.id, i % 2 === 0 ? "yes" : "no"))
        )
      )
      const statuses = answers.map((answer) => (answer.ok ? 200 : answer.status))
      expect(statuses.filter((status) => status === 200)).toHaveLength(1)
      expect(statuses.filter((status) => status === 409)).toHaveLength(19)
      const answered = (await signalsOf(context.owner.client, "answered")).find((s) => s.id === target.id)
      expect(answered).toMatchObject({ status: "answered" })
      expect(actionRuns - runsBefore).toBe(target.id === withAction.signal.id ? 1 : 0)
      const late = await refused(answerSignal(context.owner.client, target.id, "yes"))
      expect(late.body).toMatchObject({ error: "signal_closed", details: { status: "answered" } })
    }
  })
})
