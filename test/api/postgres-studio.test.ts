/**
 * A studio project on PostgreSQL, with a scripted team on the scripted OpenAI server: a generator
 * run to done, its tasks, team, review and outputs (in the order written) read back as on SQLite,
 * and what the run's model calls cost in the ledger, newest first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { mailboxDepths } from "../../kernel/actors/mailbox-depths.ts"
import { run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"
import { firstPage } from "../support/client.ts"

let models: OpenAiServer
beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(async () => {
  await models.close()
})
const context = nodeOnPostgresWithOwner(() => remoteDefault(models.baseUrl))

describe("a studio run on PostgreSQL", () => {
  it("runs a generator's steps to done with its outputs, review and costs", async () => {
    scriptStudio(models)
    const owner = context.owner.client
    const generator = await twoStepGenerator(owner)
    const started = await startGenerator(owner, generator.id, { topic: "green tea" })
    expect(started).toMatchObject({
      status: "planning",
      generatorId: generator.id,
      ownerId: context.owner.being.id,
      outputs: []
    })

    const detail = await untilSettled(owner, started.id, undefined, 60_000)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => [task.key, task.status])).toEqual([
      ["notes", "done"],
      ["report", "done"]
    ])
    expect(detail.tasks[1]!.dependsOn).toEqual([detail.tasks[0]!.id])
    expect(detail.tasks[0]!.output).toMatchObject({ ok: true, file: "notes-on-green-tea.md", repairs: 0 })
    expect(detail.team?.members.map((m) => m.role)).toEqual(["researcher", "writer"])
    expect(detail.review).toMatchObject({ verdict: "pass" })
    expect(detail.project.outputs.map((output) => [output.path, output.kind, output.url])).toEqual([
      ["notes-on-green-tea.md", "markdown", `/api/files/project/${started.id}/notes-on-green-tea.md`],
      ["report-on-green-tea.md", "markdown", `/api/files/project/${started.id}/report-on-green-tea.md`]
    ])
    const listed = await run(owner.api.studioProjects.listProjects({ urlParams: firstPage }))
    // The list carries each project's outputs as the project's own answer does.
    expect(listed.find((project) => project.id === started.id)).toMatchObject({
      status: "done",
      outputs: detail.project.outputs
    })

    // Every model call of the run is in the ledger, newest first, the QA review last made.
    const usage = await run(owner.api.llm.usage())
    const made = models.requestsFor("chat").length
    expect(usage.calls).toBe(made)
    expect(usage.recent).toHaveLength(Math.min(made, usage.recent.length))
    expect(usage.recent.every((call) => call.projectId === started.id)).toBe(true)
    expect(usage.recent.map((call) => call.createdAt)).toEqual(
      usage.recent
        .map((call) => call.createdAt)
        .sort()
        .reverse()
    )
    expect(usage.recent[0]!.tier).toBe("strong")

    // The run's notes reach its agent thread, in order: the first note makes the thread, each next one joins it.
    const notes = () =>
      run(owner.api.threads.listMessages({ path: { id: `agent-${started.id}` } })).then((messages) =>
        messages.map((message) => message.content)
      )
    await expect.poll(notes, { timeout: 15_000 }).toContain("The project is done.")
    const written = await notes()
    expect(written[0]).toMatch(/^The plan: 2 tasks\. /)
    expect(written.filter((content) => / finished "/.test(content))).toHaveLength(2)
    const inbox = await run(owner.api.threads.listThreads({ urlParams: firstPage }))
    expect(inbox.find((thread) => thread.id === `agent-${started.id}`)).toMatchObject({
      kind: "agent",
      preview: "The project is done."
    })
  }, 90_000)

  it("runs a finished project again from its last step, keeping the first, with its runs and their spend", async () => {
    scriptStudio(models)
    const owner = context.owner.client
    const generator = await twoStepGenerator(owner)
    const started = await startGenerator(owner, generator.id, { topic: "white tea" })
    const first = await untilSettled(owner, started.id, undefined, 60_000)
    await run(
      owner.api.studioProjects.replayProject({
        path: { id: started.id },
        payload: { fromTaskId: first.tasks[1]!.id, instruction: "Shorter." }
      })
    )
    const detail = await untilSettled(owner, started.id, undefined, 60_000)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => [task.status, task.keptInRun])).toEqual([
      ["done", 2],
      ["done", null]
    ])
    const runs = await run(owner.api.studioProjects.projectRuns({ path: { id: started.id } }))
    expect(runs.map(({ kind, number, status }) => [number, kind, status])).toEqual([
      [1, "start", "done"],
      [2, "replay", "done"]
    ])
    expect(runs[0]!.costUsd + runs[1]!.costUsd).toBeCloseTo(detail.project.costUsd, 9)
  }, 90_000)

  it("reads the actors' mailbox depths from the cluster's table, as /api/metrics does", async () => {
    const depths = await context.node.runtime.runPromise(mailboxDepths)
    expect(depths.every((depth) => typeof depth.kind === "string" && depth.depth > 0)).toBe(true)
    const scraped = await context.owner.client.raw("GET", "/api/metrics")
    expect(scraped.status).toBe(200)
    expect(scraped.text).toContain("# TYPE pos_actor_mailbox_depth gauge")
  })
})
