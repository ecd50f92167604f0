import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PluginModule } from "../../../kernel/extensions/context.ts"
import {
  defineSkill,
  SkillFailure,
  type SkillRun,
  type SkillRunContext,
  type SkillTraceEvent
} from "../../../kernel/extensions/skill.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"
import { courierRuns, worldActingSkill, writeWorldActingPlugin } from "../../support/world-acting-plugin.ts"

const Text = Schema.Struct({ text: Schema.String })
let aborted = false

/** Skills that behave in each way the runtime must answer for. */
const probe: PluginModule = {
  manifest: {
    apiVersion: "1.0",
    id: "@test/probe",
    version: "1.0.0",
    namespace: "probe",
    name: "Probe",
    capabilities: [{ kind: "filesystem" }],
    extensions: ["echo", "fails", "throws", "crashes", "slow", "malformed", "traced", "where", "rootless"].map(
      (id) => ({ kind: "skill" as const, id, uses: id === "where" ? ["filesystem" as const] : [] })
    )
  },
  activate: (context) => {
    // `unknown` output: some probes break the contract on purpose (a malformed output, a throw, a die).
    const skill = (
      id: string,
      run: (input: typeof Text.Type, context: SkillRunContext) => unknown,
      timeoutMs?: number
    ) =>
      context.contribute(
        "skill",
        id,
        defineSkill({
          description: `probe ${id}`,
          input: Text,
          output: Text,
          run: run as SkillRun<typeof Text.Type, typeof Text.Type>,
          ...(timeoutMs === undefined ? {} : { timeoutMs })
        })
      )
    skill("echo", async (input) => input)
    skill("fails", () => Effect.fail(new SkillFailure({ message: "the probe refuses" })))
    skill("throws", async () => {
      throw new Error("thrown by the probe")
    })
    skill("crashes", () => Effect.die(new TypeError("cannot read properties of nothing")))
    skill(
      "slow",
      (_input, run) =>
        new Promise((resolve) =>
          run.signal.addEventListener("abort", () => {
            aborted = true
            resolve({ text: "late" })
          })
        ),
      150
    )
    skill("malformed", async () => ({ text: 42 }))
    skill("traced", async (input, run) => {
      run.trace({ kind: "think", text: `considering ${input.text}` })
      return input
    })
    skill("where", async (_input, run) => ({ text: `${run.files!.kind}:${run.projectId ?? "none"}:${run.beingId}` }))
    skill("rootless", async (_input, run) => ({ text: String(run.files) }))
  }
}

let skills: SkillHarness
beforeAll(async () => {
  skills = await startSkills({ plugins: [probe] })
})
afterAll(() => skills.close())

describe("the skill runtime", () => {
  it("answers a skill's output with its duration", async () => {
    const outcome = await skills.invoke("probe.echo", { text: "hi" })
    expect(outcome).toEqual({ ok: true, output: { text: "hi" }, durationMs: expect.any(Number) })
  })

  it("refuses input that does not fit the skill's schema, naming the field, without running it", async () => {
    expect(await skills.invoke("probe.echo", { text: 1 })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/probe\.echo: text: Expected string/)
    })
    expect(await skills.invoke("probe.echo", { text: "x", extra: true })).toMatchObject({
      ok: false,
      error: expect.stringContaining("extra")
    })
    expect(await skills.invoke("probe.echo", "not an object")).toMatchObject({ ok: false })
  })

  it("answers a skill's own failure, a thrown error and a crash as ok: false with a plain message", async () => {
    expect(await skills.invoke("probe.fails", { text: "x" })).toMatchObject({ ok: false, error: "the probe refuses" })
    expect(await skills.invoke("probe.throws", { text: "x" })).toMatchObject({
      ok: false,
      error: "thrown by the probe"
    })
    const crashed = await skills.invoke("probe.crashes", { text: "x" })
    expect(crashed).toMatchObject({ ok: false, error: "probe.crashes crashed: cannot read properties of nothing" })
    expect(crashed.error).not.toMatch(/\n\s+at /)
  })

  it("stops a skill at its time limit and aborts its signal", async () => {
    const outcome = await skills.invoke("probe.slow", { text: "x" })
    expect(outcome).toMatchObject({ ok: false, error: "probe.slow did not finish within 0.15 seconds." })
    expect(outcome.durationMs).toBeGreaterThanOrEqual(140)
    expect(aborted).toBe(true)
  })

  it("refuses an output that does not fit the skill's own schema", async () => {
    expect(await skills.invoke("probe.malformed", { text: "x" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("probe.malformed answered with an output that does not fit its schema")
    })
  })

  it("hands the skill a trace sink, a no-op when the caller gives none", async () => {
    const events: Array<SkillTraceEvent> = []
    expect(await skills.invoke("probe.traced", { text: "x" }, { trace: (event) => events.push(event) })).toMatchObject({
      ok: true
    })
    expect(events).toEqual([{ kind: "think", text: "considering x" }])
    expect(await skills.invoke("probe.traced", { text: "y" })).toMatchObject({ ok: true })
  })

  it("gives the file root only to extensions that use 'filesystem': a project's workspace, else the being's uploads", async () => {
    expect(at((await skills.invoke("probe.where", { text: "" })).output, "text")).toBe("uploads:none:ada")
    expect(at((await skills.invoke("probe.where", { text: "" }, { projectId: "p1" })).output, "text")).toBe(
      "project:p1:ada"
    )
    expect(at((await skills.invoke("probe.rootless", { text: "" })).output, "text")).toBe("undefined")
    expect(await skills.invoke("probe.where", { text: "" }, { projectId: "../other" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("cannot name a folder")
    })
  })

  it("fails an unknown name with unknown_skill", async () => {
    await expect(skills.invoke("probe.nothing", {})).rejects.toMatchObject({
      _tag: "UnknownSkill",
      error: "unknown_skill"
    })
  })
})

describe("the approval gate", () => {
  beforeAll(async () => {
    writeWorldActingPlugin(skills.pluginDir)
    await skills.install("courier", ["world-acting", "filesystem"])
  })

  it("marks a plugin skill that uses 'world-acting' as world-acting, and no other", async () => {
    const listed = await skills.list()
    expect(listed.find((skill) => skill.name === worldActingSkill)).toMatchObject({
      worldActing: true,
      pluginId: "@test/courier",
      family: "courier"
    })
    expect(listed.filter((skill) => skill.worldActing).map((skill) => skill.name)).toEqual([
      "code.execute",
      "code.scaffold_react_node",
      "http.request",
      "http.json",
      "email.send",
      "chat_a.send",
      "chat_b.send",
      worldActingSkill
    ])
  })

  it("refuses an unapproved call without running it, and asks the owner with the exact attempted input", async () => {
    const before = courierRuns().length
    const input = { to: "bob@example.org", text: "The report is ready." }
    const outcome = await skills.invoke(worldActingSkill, input, { approved: false, projectId: "p7" })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("waits for the owner's approval"),
      approval: { status: "waiting", signalId: expect.any(String), delivered: true }
    })
    expect(courierRuns().length).toBe(before)
    expect(skills.asked.at(-1)).toEqual({
      skill: worldActingSkill,
      input,
      beingId: "ada",
      projectId: "p7",
      reason: "delivers messages to other people"
    })
  })

  it("validates before it asks: a malformed call raises no approval", async () => {
    const asked = skills.asked.length
    expect(await skills.invoke(worldActingSkill, { to: "bob" }, { approved: false })).toMatchObject({
      ok: false,
      error: expect.stringContaining("text")
    })
    expect(skills.asked.length).toBe(asked)
  })

  it("runs an approved call", async () => {
    const outcome = await skills.invoke(worldActingSkill, { to: "carol", text: "hi" }, { approved: true })
    expect(outcome).toMatchObject({ ok: true, output: { delivered: true, to: "carol" } })
    expect(courierRuns().at(-1)).toEqual({ to: "carol", text: "hi" })
  })

  it("never gates a skill that does not act on the world", async () => {
    const asked = skills.asked.length
    expect(await skills.invoke("probe.echo", { text: "x" }, { approved: false })).toMatchObject({ ok: true })
    expect(skills.asked.length).toBe(asked)
  })
})
