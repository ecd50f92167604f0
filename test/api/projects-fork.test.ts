/**
 * A fork from a step, on a real node over real HTTP with a scripted team: a new project of the caller's holds a copy
 * of the kept part (plan, team, finished steps, the workspace's files) and runs like a replay, making only the calls
 * of the steps it runs again and its review; the original's rows, files and trace stay exactly as they were. And
 * fork's refusals, and a resume counted as a run of its own.
 */
import { describe, expect, it } from "vitest"
import { Client, refused, run } from "../support/node.ts"
import { firstPage } from "../support/client.ts"
import { callsFor, isReviewCall } from "./projects-scripted.ts"
import { startGenerator, untilSettled } from "./projects-support.ts"
import { ledgerOf, replayContext, scriptVersions, threeStepGenerator } from "./projects-replay-support.ts"

const context = replayContext()
let version = 1

const fork = (client: Client, id: string, payload: { fromTaskId: string; instruction?: string }) =>
  client.api.studioProjects.forkProject({ path: { id }, payload })

const files = ["notes-on-assam.md", "draft-on-assam.md", "report-on-assam.md"]

/** What a person can read of a project: its detail, trace, runs and the text of each of its files. */
const everything = async (client: Client, id: string) => ({
  detail: await run(client.api.studioProjects.getProject({ path: { id } })),
  trace: await run(client.api.studioProjects.projectTrace({ path: { id }, urlParams: {} })),
  runs: await run(client.api.studioProjects.projectRuns({ path: { id } })),
  files: await Promise.all(
    files.map(async (path) => (await client.raw("GET", `/api/files/project/${id}/${path}`)).text)
  )
})

describe("a fork from the last step", () => {
  it("copies the kept part into a new project of the caller's, runs the rest, and leaves the original as it was", async () => {
    scriptVersions(context.models, () => version)
    const generator = await threeStepGenerator(context.member.client)
    const started = await startGenerator(context.member.client, generator.id, { topic: "assam" })
    const original = await untilSettled(context.member.client, started.id)
    expect(original.project.status).toBe("done")
    const id = original.project.id
    const before = await everything(context.member.client, id)
    const ledgerBefore = await ledgerOf(context.node, id)
    const chatsBefore = context.models.requestsFor("chat").length
    const [notes, draft, report] = original.tasks

    version = 2
    const answer = await context.member.client.raw("POST", `/api/studio/projects/${id}/fork`, {
      fromTaskId: report!.id,
      instruction: "Add a table."
    })
    expect(answer.status).toBe(201)
    const forked = answer.body as { id: string; ownerId: string; title: string; costUsd: number }
    expect(forked).toMatchObject({ ownerId: context.member.being.id, title: `${original.project.title} (fork)` })
    expect(forked.id).not.toBe(id)
    const detail = await untilSettled(context.member.client, forked.id)
    expect(detail.project.status).toBe("done")

    // Only the report's two calls and the fork's review were made; the kept steps cost the fork nothing.
    const made = context.models.requestsFor("chat").slice(chatsBefore)
    expect(made.map((request) => (isReviewCall(request) ? "review" : "report"))).toEqual(["report", "report", "review"])
    expect(callsFor(context.models, notes!.title)).toHaveLength(2)
    expect(callsFor(context.models, draft!.title)).toHaveLength(2)
    expect(JSON.stringify(callsFor(context.models, report!.title).at(-2)!.body.messages)).toContain(
      "The owner ran this step again and adds: Add a table."
    )
    expect(detail.tasks.map((task) => [task.key, task.status, task.keptInRun, task.projectId])).toEqual([
      ["notes", "done", 1, forked.id],
      ["draft", "done", 1, forked.id],
      ["report", "done", null, forked.id]
    ])
    expect(detail.tasks[1]!.dependsOn).toEqual([detail.tasks[0]!.id])
    expect(detail.tasks.slice(0, 2).map((task) => task.costUsd)).toEqual([0, 0])
    expect(detail.team?.members).toEqual(original.team?.members)
    const forkedFiles = await everything(context.member.client, forked.id)
    expect(forkedFiles.files.map((text) => /Version (\d)/.exec(text)?.[1])).toEqual(["1", "1", "2"])
    expect(detail.project.outputs.map((output) => output.path).sort()).toEqual([...files].sort())
    expect(forkedFiles.runs).toMatchObject([
      {
        number: 1,
        kind: "fork",
        status: "done",
        forkedFrom: id,
        fromTaskId: detail.tasks[2]!.id,
        instruction: "Add a table."
      }
    ])
    const forkLedger = await ledgerOf(context.node, forked.id)
    expect(forkLedger).toHaveLength(3)
    expect(forkedFiles.runs[0]!.costUsd).toBeCloseTo(
      forkLedger.reduce((total, row) => total + row.costUsd, 0),
      9
    )
    expect(detail.project.costUsd).toBeCloseTo(forkedFiles.runs[0]!.costUsd, 9)
    const kept = forkedFiles.trace.filter((event) => event.kind === "kept")
    expect(kept.map((event) => event.taskId)).toEqual([detail.tasks[0]!.id, detail.tasks[1]!.id])

    // The original: the same rows, files, trace, runs and ledger.
    expect(await everything(context.member.client, id)).toEqual(before)
    expect(before.files.map((text) => /Version (\d)/.exec(text)?.[1])).toEqual(["1", "1", "1"])
    expect(await ledgerOf(context.node, id)).toEqual(ledgerBefore)
  })
})

describe("fork's refusals and runs", () => {
  it("answers 401, 403 cross-site, 415, 400, 404 and 409 while running, making no project; a resume is a run", async () => {
    scriptVersions(
      context.models,
      () => version,
      (title) => (title.startsWith("Report") ? 60_000 : 0)
    )
    const generator = await threeStepGenerator(context.member.client)
    const started = await startGenerator(context.member.client, generator.id, { topic: "darjeeling" })
    const id = started.id
    const going = await untilSettled(
      context.member.client,
      id,
      () => callsFor(context.models, "Report on darjeeling").length > 0
    )
    const fromTaskId = going.tasks[0]!.id
    const path = `/api/studio/projects/${id}/fork`
    const projectsBefore = await run(context.member.client.api.studioProjects.listProjects({ urlParams: firstPage }))

    expect((await new Client(context.node.url).raw("POST", path, { fromTaskId })).status).toBe(401)
    expect(
      (await context.member.client.raw("POST", path, { fromTaskId }, { "sec-fetch-site": "cross-site" })).status
    ).toBe(403)
    expect(
      (await context.member.client.raw("POST", path, `fromTaskId=${fromTaskId}`, { "content-type": "text/plain" }))
        .status
    ).toBe(415)
    for (const payload of [{}, { fromTaskId, instruction: "x".repeat(2001) }, { fromTaskId, more: 1 }]) {
      expect((await context.member.client.raw("POST", path, payload)).status).toBe(400)
    }
    expect(await refused(fork(context.owner.client, id, { fromTaskId }))).toMatchObject({
      status: 404,
      body: { error: "project_not_found" }
    })
    expect(await refused(fork(context.member.client, id, { fromTaskId: "no-such-step" }))).toMatchObject({
      status: 404,
      body: { error: "task_not_found" }
    })
    expect(await refused(fork(context.member.client, id, { fromTaskId }))).toMatchObject({
      status: 409,
      body: { error: "project_running" }
    })
    expect(await run(context.member.client.api.studioProjects.listProjects({ urlParams: firstPage }))).toEqual(
      projectsBefore
    )

    // Cancelled, then resumed: the runs say so, each with its own status.
    scriptVersions(context.models, () => version)
    await run(context.member.client.api.studioProjects.cancelProject({ path: { id } }))
    await run(context.member.client.api.studioProjects.resumeProject({ path: { id } }))
    await untilSettled(context.member.client, id)
    const runs = await run(context.member.client.api.studioProjects.projectRuns({ path: { id } }))
    expect(runs.map(({ kind, number, status }) => ({ kind, number, status }))).toEqual([
      { kind: "start", number: 1, status: "cancelled" },
      { kind: "resume", number: 2, status: "done" }
    ])
    expect(runs.every((found) => found.finishedAt !== null)).toBe(true)
  })
})
