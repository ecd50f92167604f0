/**
 * signal.raise through the skill runtime: every call traced, the call's scope handed to the
 * signals adapter (a recording stand-in here; the real one is proven on a node in
 * test/api/skill-families.test.ts), the spec's limits refused before anything is raised, and a
 * plain note when no adapter is wired.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { SignalRaise } from "../../../kernel/extensions/adapters.ts"
import { refused } from "../../../kernel/extensions/capability-refused.ts"
import type { CallScope } from "../../../kernel/extensions/context.ts"
import type { SkillTraceEvent } from "../../../kernel/extensions/skill.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

const raised: Array<{ readonly input: SignalRaise; readonly scope: CallScope }> = []

let skills: SkillHarness
let unwired: SkillHarness

beforeAll(async () => {
  skills = await startSkills({
    adapters: {
      signals: (_plugin, scope) => ({
        raise: (input) =>
          Effect.suspend(() => {
            if (input.title === "refuse me") return refused("signals.raise refused the signal: a test refusal")
            raised.push({ input, scope })
            return Effect.succeed({ signalId: `signal-${raised.length}`, delivered: input.priority !== "low" })
          })
      })
    }
  })
  unwired = await startSkills()
})
afterAll(() => Promise.all([skills.close(), unwired.close()]))
beforeEach(() => {
  raised.length = 0
})

const traced = () => {
  const events: Array<SkillTraceEvent> = []
  return { events, trace: (event: SkillTraceEvent) => void events.push(event) }
}

describe("signal.raise", () => {
  it("raises through the adapter built for the call, with the spec's defaults, and traces it", async () => {
    const { events, trace } = traced()
    const outcome = await skills.invoke(
      "signal.raise",
      { title: "Draft ready", body: "Chapter one is written." },
      { beingId: "ada", projectId: "p-1", trace }
    )
    expect(outcome).toMatchObject({ ok: true, output: { signalId: "signal-1", delivered: true } })
    expect(raised).toEqual([
      {
        input: { kind: "insight", title: "Draft ready", body: "Chapter one is written.", priority: "normal" },
        scope: { beingId: "ada", projectId: "p-1", contribution: "signal.raise" }
      }
    ])
    expect(events).toEqual([
      {
        kind: "message",
        text: 'signal raised: "Draft ready"',
        data: { kind: "insight", title: "Draft ready", priority: "normal", signalId: "signal-1", delivered: true }
      }
    ])
  })

  it("passes options, due date and action on, and says when the signal is held off the desktop", async () => {
    const input = {
      kind: "decision",
      title: "Publish?",
      priority: "low",
      dueAt: "2030-01-31T09:00:00Z",
      options: [
        { id: "yes", label: "Yes" },
        { id: "no", label: "No", hint: "keep it a draft" }
      ],
      action: { kind: "note", n: 1 }
    }
    const outcome = await skills.invoke("signal.raise", input)
    expect(outcome.output).toEqual({
      signalId: "signal-1",
      delivered: false,
      note: "The signal is stored but held off the desktop for now."
    })
    expect(raised[0].input).toEqual(input)
  })

  it("refuses the spec's limits (a 161-character title, 7 options, a 4001-character body) without raising", async () => {
    const options = Array.from({ length: 7 }, (_, n) => ({ id: `o${n}`, label: `Option ${n}` }))
    for (const input of [
      { title: "x".repeat(161) },
      { title: "Pick", options },
      { title: "Long", body: "x".repeat(4001) },
      { title: " " },
      { title: "x", kind: "rumour" }
    ]) {
      expect(await skills.invoke("signal.raise", input), JSON.stringify(input).slice(0, 60)).toMatchObject({
        ok: false,
        error: expect.stringContaining("The input does not fit signal.raise")
      })
    }
    expect(await skills.invoke("signal.raise", { title: "x".repeat(160), options: options.slice(0, 6) })).toMatchObject(
      { ok: true }
    )
    expect(raised).toHaveLength(1)
  })

  it("answers the node's refusal plainly, and traces it", async () => {
    const { events, trace } = traced()
    const outcome = await skills.invoke("signal.raise", { title: "refuse me" }, { trace })
    expect(outcome).toMatchObject({ ok: false, error: "signals.raise refused the signal: a test refusal" })
    expect(events).toEqual([
      { kind: "error", text: 'signal.raise refused "refuse me": signals.raise refused the signal: a test refusal' }
    ])
  })

  it("with no signals adapter answers delivered false with a plain note, and still traces the call", async () => {
    const { events, trace } = traced()
    const outcome = await unwired.invoke("signal.raise", { title: "Anyone there?" }, { projectId: "p-2", trace })
    expect(outcome).toMatchObject({
      ok: true,
      output: { signalId: null, delivered: false, note: "signals are not wired on this node yet." }
    })
    expect(events).toEqual([
      {
        kind: "message",
        text: 'signal not raised: "Anyone there?" (signals are not wired on this node yet.)',
        data: {
          kind: "insight",
          title: "Anyone there?",
          priority: "normal",
          signalId: null,
          delivered: false,
          note: "signals are not wired on this node yet."
        }
      }
    ])
  })
})
