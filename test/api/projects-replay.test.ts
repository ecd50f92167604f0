/**
 * Start again from any step, on a real node over real HTTP with a scripted team: a replay from the middle step of a
 * three-step run makes exactly that step's and the next one's model calls and the review's (the scripted model
 * server counts them), keeps the first step (traced `kept`), lists the runs with what each spent (the ledger holds
 * only the replay's own calls), and every refusal changes nothing.
 */
import { describe, expect, it } from "vitest"
import { Client, refused, run } from "../support/node.ts"
import { callsFor, isPlannerCall, isReviewCall, scriptStudio, type Written } from "./projects-scripted.ts"
import { draftThenEditSteps, startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"
import { ledgerOf, replayContext, scriptVersions, threeStepGenerator } from "./projects-replay-support.ts"

const context = replayContext()
let version = 1

const replay = (client: Client, id: string, payload: { fromTaskId: string; instruction?: string }) =>
  client.api.studioProjects.replayProject({ path: { id }, payload })

const runsOf = (client: Client, id: string) => run(client.api.studioProjects.projectRuns({ path: { id } }))

const traceOf = (client: Client, id: string) =>
  run(client.api.studioProjects.projectTrace({ path: { id }, urlParams: {} }))

/** A finished three-step run of the member's, on topic `topic`. */
const finishedLine = async (topic: string) => {
  version = 1
  scriptVersions(context.models, () => version)
  const generator = await threeStepGenerator(context.member.client)
  const started = await startGenerator(context.member.client, generator.id, { topic })
  const detail = await untilSettled(context.member.client, started.id)
  expect(detail.project.status).toBe("done")
  return detail
}

describe("a replay from the middle step", () => {
  it("runs that step (with the instruction) and the one after it, keeps the first, and reviews again", async () => {
    const first = await finishedLine("oolong")
    const id = first.project.id
    const [notes, draft, report] = first.tasks
    const fileOf = async (path: string) =>
      (await context.member.client.raw("GET", `/api/files/project/${id}/${path}`)).text
    expect(await fileOf("notes-on-oolong.md")).toContain("Version 1")
    const chatsBefore = context.models.requestsFor("chat").length
    const notesCalls = callsFor(context.models, notes!.title).length
    const draftCalls = callsFor(context.models, draft!.title).length
    const reportCalls = callsFor(context.models, report!.title).length
    const ledgerBefore = await ledgerOf(context.node, id)
    expect(ledgerBefore).toHaveLength(chatsBefore)

    version = 2
    const answered = await run(
      replay(context.member.client, id, { fromTaskId: draft!.id, instruction: "  Make it shorter.  " })
    )
    expect(answered.status).toBe("running")
    const detail = await untilSettled(context.member.client, id)
    expect(detail.project.status).toBe("done")

    // Exactly the draft's two calls (save, then say so), the report's two, and the review: no planner, no notes.
    const made = context.models.requestsFor("chat").slice(chatsBefore)
    expect(made).toHaveLength(5)
    expect(callsFor(context.models, notes!.title)).toHaveLength(notesCalls)
    expect(callsFor(context.models, draft!.title)).toHaveLength(draftCalls + 2)
    expect(callsFor(context.models, report!.title)).toHaveLength(reportCalls + 2)
    expect(made.filter(isReviewCall)).toHaveLength(1)
    expect(made.filter(isPlannerCall)).toEqual([])
    // The draft's agent is told what the owner added; the report's reads the new draft.
    const draftPrompt = JSON.stringify(callsFor(context.models, draft!.title).at(-2)!.body.messages)
    expect(draftPrompt).toContain("The owner ran this step again and adds: Make it shorter.")
    expect(JSON.stringify(callsFor(context.models, report!.title).at(-2)!.body.messages)).toContain(
      `Version 2 of ${draft!.title}`
    )

    // The first step is kept as it was; the others are the new run's own.
    const [keptNotes, newDraft, newReport] = detail.tasks
    expect(keptNotes).toMatchObject({
      status: "done",
      keptInRun: 2,
      finishedAt: notes!.finishedAt,
      output: notes!.output,
      costUsd: notes!.costUsd
    })
    expect([newDraft!.keptInRun, newReport!.keptInRun]).toEqual([null, null])
    expect(newDraft!.description).toBe(`${draft!.description}\n\nAdded when run again: Make it shorter.`)
    expect(newDraft!.finishedAt! > draft!.finishedAt!).toBe(true)
    expect(await fileOf("notes-on-oolong.md")).toContain("Version 1")
    expect(await fileOf("draft-on-oolong.md")).toContain("Version 2")
    expect(await fileOf("report-on-oolong.md")).toContain("Version 2")
    expect(detail.review).not.toBeNull()

    // Traced: the replay, then the kept step as `kept`, and no tool call of the notes' agent after the replay.
    const trace = await traceOf(context.member.client, id)
    const replayed = trace.findIndex((event) => event.kind === "plan" && event.text.startsWith("Run 2: again from"))
    expect(replayed).toBeGreaterThan(0)
    const after = trace.slice(replayed)
    expect(after.filter((event) => event.kind === "kept").map((event) => event.taskId)).toEqual([notes!.id])
    expect(after.filter((event) => event.kind === "tool.call" && event.taskId === notes!.id)).toEqual([])
    expect(after.filter((event) => event.kind === "tool.call").map((event) => event.taskId)).toEqual([
      draft!.id,
      report!.id
    ])

    // The runs with their spend; the ledger holds the replay's five calls and only those since it began.
    const runs = await runsOf(context.member.client, id)
    expect(
      runs.map(({ number, kind, status, fromTaskId, instruction }) => ({
        number,
        kind,
        status,
        fromTaskId,
        instruction
      }))
    ).toEqual([
      { number: 1, kind: "start", status: "done", fromTaskId: null, instruction: null },
      { number: 2, kind: "replay", status: "done", fromTaskId: draft!.id, instruction: "Make it shorter." }
    ])
    expect(runs.every((found) => found.finishedAt !== null && found.finishedAt >= found.startedAt)).toBe(true)
    const ledger = await ledgerOf(context.node, id)
    const replayLedger = ledger.filter((row) => row.createdAt >= runs[1]!.startedAt)
    expect(ledger.slice(0, ledgerBefore.length)).toEqual(ledgerBefore)
    expect(replayLedger).toHaveLength(5)
    expect(replayLedger.map((row) => row.purpose).sort()).toEqual([
      "studio QA review",
      `studio task draft`,
      `studio task draft`,
      `studio task report`,
      `studio task report`
    ])
    const sum = (rows: ReadonlyArray<{ readonly costUsd: number }>) =>
      rows.reduce((total, row) => total + row.costUsd, 0)
    expect(runs[1]!.costUsd).toBeGreaterThan(0)
    expect(runs[1]!.costUsd).toBeCloseTo(sum(replayLedger), 9)
    expect(runs[0]!.costUsd).toBeCloseTo(sum(ledgerBefore), 9)
    expect(detail.project.costUsd).toBeCloseTo(sum(ledger), 9)
  })

  it("from the last step makes only that step's calls and the review's; a second replay keeps what the first ran", async () => {
    const first = await finishedLine("sencha")
    const id = first.project.id
    await run(replay(context.member.client, id, { fromTaskId: first.tasks[1]!.id }))
    await untilSettled(context.member.client, id)
    const chatsBefore = context.models.requestsFor("chat").length
    await run(replay(context.member.client, id, { fromTaskId: first.tasks[2]!.id, instruction: "" }))
    const detail = await untilSettled(context.member.client, id)
    expect(detail.project.status).toBe("done")
    const made = context.models.requestsFor("chat").slice(chatsBefore)
    expect(made.map((request) => (isReviewCall(request) ? "review" : "report"))).toEqual(["report", "report", "review"])
    expect(detail.tasks.map((task) => task.keptInRun)).toEqual([3, 3, null])
    // No instruction: the step's description is as it was.
    expect(detail.tasks[2]!.description).toBe(first.tasks[2]!.description)
    expect((await runsOf(context.member.client, id)).map((found) => found.kind)).toEqual(["start", "replay", "replay"])
  })
})

describe("a revision run again", () => {
  it("revises the text it first revised, not its own last version", async () => {
    const long = `# Draft\n\n${"Green tea is steamed or pan-fired soon after picking. ".repeat(12)}\n`
    // The editor appends its line to the draft (files.write with append), so a second pass over its own last version
    // would leave the line twice.
    scriptStudio(context.models, {
      write: (title) =>
        title.startsWith("Edit")
          ? ({ path: "draft.md", content: "\nEdited once.\n", append: true } as Written)
          : title.startsWith("Draft")
            ? { path: "draft.md", content: long }
            : undefined
    })
    const generator = await twoStepGenerator(context.member.client, {
      steps: draftThenEditSteps()
    })
    const started = await startGenerator(context.member.client, generator.id, { topic: "gyokuro" })
    const first = await untilSettled(context.member.client, started.id)
    expect([first.project.status, first.project.error]).toEqual(["done", null])
    const draft = async () => (await context.member.client.raw("GET", `/api/files/project/${started.id}/draft.md`)).text
    expect(await draft()).toBe(`${long}\nEdited once.\n`)
    await run(replay(context.member.client, started.id, { fromTaskId: first.tasks.at(-1)!.id }))
    const detail = await untilSettled(context.member.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.at(-1)!.output).toMatchObject({ ok: true, revertedTo: null })
    expect(await draft()).toBe(`${long}\nEdited once.\n`)
  })
})

describe("replay's refusals", () => {
  it("answers 401, 403 cross-site, 415, 400, 404 (another's project, a step of another project, none) and 409 while running, changing nothing", async () => {
    const first = await finishedLine("matcha")
    const other = await finishedLine("hojicha")
    const id = first.project.id
    const fromTaskId = first.tasks[1]!.id
    const path = `/api/studio/projects/${id}/replay`
    const before = await run(context.member.client.api.studioProjects.getProject({ path: { id } }))
    const traceBefore = await traceOf(context.member.client, id)

    expect((await new Client(context.node.url).raw("POST", path, { fromTaskId })).status).toBe(401)
    const crossSite = await context.member.client.raw("POST", path, { fromTaskId }, { "sec-fetch-site": "cross-site" })
    expect(crossSite.status).toBe(403)
    const text = await context.member.client.raw("POST", path, `fromTaskId=${fromTaskId}`, {
      "content-type": "text/plain"
    })
    expect(text.status).toBe(415)
    for (const payload of [
      {},
      { fromTaskId: "" },
      { fromTaskId, instruction: "x".repeat(2001) },
      { fromTaskId, extra: true }
    ]) {
      const answer = await context.member.client.raw("POST", path, payload)
      expect([answer.status, (answer.body as { error?: string }).error]).toEqual([400, "invalid_request"])
    }
    expect(await refused(replay(context.owner.client, id, { fromTaskId }))).toMatchObject({
      status: 404,
      body: { error: "project_not_found" }
    })
    expect(await refused(replay(context.member.client, "no-such-project", { fromTaskId }))).toMatchObject({
      status: 404,
      body: { error: "project_not_found" }
    })
    for (const stranger of [other.tasks[1]!.id, "no-such-step"]) {
      expect(await refused(replay(context.member.client, id, { fromTaskId: stranger }))).toMatchObject({
        status: 404,
        body: { error: "task_not_found" }
      })
    }
    expect(await run(context.member.client.api.studioProjects.getProject({ path: { id } }))).toEqual(before)
    expect(await traceOf(context.member.client, id)).toEqual(traceBefore)
    expect((await runsOf(context.member.client, id)).map((found) => found.number)).toEqual([1])
    expect(await refused(context.owner.client.api.studioProjects.projectRuns({ path: { id } }))).toMatchObject({
      status: 404,
      body: { error: "project_not_found" }
    })

    // While a run goes (the report's agent is slow), replaying it is refused; once it is over, it is taken.
    scriptVersions(
      context.models,
      () => version,
      (title) => (title.startsWith("Report") ? 1_500 : 0)
    )
    await run(replay(context.member.client, id, { fromTaskId: first.tasks[2]!.id }))
    expect(await refused(replay(context.member.client, id, { fromTaskId }))).toMatchObject({
      status: 409,
      body: { error: "project_running", details: { status: "running" } }
    })
    const detail = await untilSettled(context.member.client, id)
    expect(detail.project.status).toBe("done")
    expect((await runsOf(context.member.client, id)).map((found) => found.kind)).toEqual(["start", "replay"])
  })
})
