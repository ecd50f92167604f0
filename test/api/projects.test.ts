/**
 * Studio projects on a real node over real HTTP, with a scripted team on the scripted OpenAI
 * server: a generator run and a brief run to done with their outputs, the deliverable checks
 * and repairs, plan repair, and who may see what.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { at } from "../support/json.ts"
import {
  apiError,
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { callsFor, isPlannerCall, isReviewCall, scriptStudio } from "./projects-scripted.ts"
import { draftThenEditSteps, startBrief, startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"
import { firstPage } from "../support/client.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

describe("a generator run", () => {
  it("renders its steps without a planner call, runs each task's loop, and ends done with downloadable outputs", async () => {
    models.reset()
    scriptStudio(models)
    const generator = await twoStepGenerator(member.client)
    const started = await startGenerator(member.client, generator.id, { topic: "green tea" })
    expect(started).toMatchObject({
      status: "planning",
      generatorId: generator.id,
      ownerId: member.being.id,
      outputs: []
    })

    const detail = await untilSettled(member.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => [task.key, task.status])).toEqual([
      ["notes", "done"],
      ["report", "done"]
    ])
    expect(detail.tasks[1]!.dependsOn).toEqual([detail.tasks[0]!.id])
    expect(detail.tasks[0]!.output).toMatchObject({ ok: true, file: "notes-on-green-tea.md", repairs: 0 })
    expect(detail.team?.members.map((m) => m.role)).toEqual(["researcher", "writer"])
    expect(detail.tasks.every((task) => detail.team?.memberAgentIds.includes(task.assigneeAgentId ?? ""))).toBe(true)
    expect(detail.review).toMatchObject({ verdict: "pass", notes: "Does what the brief asks." })
    expect(detail.project.outputs.map((output) => [output.path, output.kind, output.url])).toEqual([
      ["notes-on-green-tea.md", "markdown", `/api/files/project/${started.id}/notes-on-green-tea.md`],
      ["report-on-green-tea.md", "markdown", `/api/files/project/${started.id}/report-on-green-tea.md`]
    ])
    // The list carries each project's outputs as the project's own answer does.
    const listed = await run(member.client.api.studioProjects.listProjects({ urlParams: firstPage }))
    expect(listed.find((project) => project.id === started.id)?.outputs).toEqual(detail.project.outputs)

    // The planner (strong tier, o3) was never asked; the strong tier served only the QA review.
    expect(models.requestsFor("chat").filter(isPlannerCall)).toEqual([])
    expect(
      models
        .requestsFor("chat")
        .filter((request) => request.model === "o3")
        .every(isReviewCall)
    ).toBe(true)
    expect(models.requestsFor("chat").filter(isReviewCall)).toHaveLength(1)
    // The second step read the first one's output through its template.
    const reportCall = callsFor(models, "Report on green tea")[0]!
    expect(JSON.stringify(reportCall.body.messages!)).toContain("The work of the task Notes on green tea")
    expect(reportCall.body.tools!.map((tool) => tool.function.name)).toContain("files__write")

    // File downloads are raw routes outside the contract.
    const url = detail.project.outputs[1]!.url
    const file = await member.client.raw("GET", url)
    expect(file.status).toBe(200)
    expect(file.headers["content-type"]).toBe("text/markdown; charset=utf-8")
    expect(file.text).toContain("# Report on green tea")
    expect(file.headers["content-security-policy"]).toBe("sandbox")
    expect((await owner.client.raw("GET", url)).status).toBe(404)
    expect((await new Client(node.url).raw("GET", url)).status).toBe(401)
    expect((await member.client.raw("GET", `/api/files/project/${started.id}/missing.md`)).status).toBe(404)
    const climbing = await member.client.raw("GET", `/api/files/project/${started.id}/..%2f..%2fnode.db`)
    expect([climbing.status, apiError(climbing).error]).toEqual([400, "invalid_path"])

    const traceOf = (after?: number) =>
      run(
        member.client.api.studioProjects.projectTrace({
          path: { id: started.id },
          urlParams: after === undefined ? {} : { after }
        })
      )
    const trace = await traceOf()
    const kinds = new Set(trace.map((event) => event.kind))
    expect([...kinds]).toEqual(
      expect.arrayContaining(["plan", "tool.call", "tool.result", "message", "output", "done"])
    )
    const after = await traceOf(Number(trace.at(-2)!.id))
    expect(after).toEqual([trace.at(-1)])
  })
})

describe("a brief run", () => {
  it("asks the planner once (strong tier), repairs a cyclic plan without research, and traces each repair", async () => {
    models.reset()
    scriptStudio(models, {
      plan: {
        tasks: [
          { id: "outline", title: "Outline the guide", role: "writer", dependsOn: ["draft"] },
          { id: "draft", title: "Draft the guide", role: "writer", dependsOn: ["outline"] }
        ]
      }
    })
    const started = await startBrief(member.client, "A short guide to brewing green tea\nfor beginners")
    expect(started).toMatchObject({
      status: "planning",
      title: "A short guide to brewing green tea",
      generatorId: null
    })
    const detail = await untilSettled(member.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(
      models
        .requestsFor("chat")
        .filter(isPlannerCall)
        .map((request) => request.model)
    ).toEqual(["o3"])
    expect(detail.tasks.map((task) => task.key)).toEqual(["research", "outline", "draft"])
    expect(detail.tasks.every((task) => task.status === "done")).toBe(true)
    const trace = await run(member.client.api.studioProjects.projectTrace({ path: { id: started.id }, urlParams: {} }))
    const repairs = trace
      .filter((event) => event.kind === "plan" && at(event.data, "repair") !== undefined)
      .map((event) => at(event.data, "repair", "kind"))
    expect(repairs).toEqual(["cycle", "research"])
    expect(detail.project.costUsd).toBeGreaterThan(0)
  })
})

describe("the deliverable checks", () => {
  it("feed a failing deliverable back as a repair, which then passes", async () => {
    models.reset()
    scriptStudio(models, {
      write: (title, repair) =>
        !title.startsWith("Essay")
          ? undefined
          : {
              path: "essay.md",
              content:
                repair === 0
                  ? `# ${title}\n\nA first go without its sources.\n`
                  : `# ${title}\n\nA first go.\n\n## Sources\n\n- https://example.org/a\n`
            }
    })
    const generator = await twoStepGenerator(member.client, {
      steps: [
        {
          id: "essay",
          title: "Essay on {{inputs.topic}}",
          role: "writer",
          skills: ["files.write"],
          instruction: "Write it.",
          deliverable: { file: "essay.md", requireSections: ["Sources"] }
        }
      ]
    })
    const started = await startGenerator(member.client, generator.id, { topic: "oolong" })
    const detail = await untilSettled(member.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task) => task.key)).toEqual(["research", "essay"])
    expect(detail.tasks[1]!.output).toMatchObject({ ok: true, file: "essay.md", repairs: 1, failures: [] })
    const repairCall = callsFor(models, "Essay on oolong").find((request) =>
      JSON.stringify(request.body.messages!).includes("did not pass its checks")
    )
    expect(JSON.stringify(repairCall?.body.messages)).toContain('lacks the section \\"Sources\\"')
  })

  it("put a revision that lost too much back to the earlier version", async () => {
    models.reset()
    const long = `# Draft\n\n${"Green tea is steeped briefly in water below boiling. ".repeat(20)}\n\nSee https://example.org/tea and https://example.org/water.\n`
    scriptStudio(models, {
      write: (title) =>
        title.startsWith("Edit")
          ? { path: "draft.md", content: "# Draft\n\nTea.\n" }
          : title.startsWith("Draft")
            ? { path: "draft.md", content: long }
            : undefined
    })
    const generator = await twoStepGenerator(member.client, {
      steps: draftThenEditSteps({ maxRepairs: 0 })
    })
    const started = await startGenerator(member.client, generator.id, { topic: "sencha" })
    const detail = await untilSettled(member.client, started.id)
    expect(detail.project.status).toBe("failed")
    expect(detail.tasks[1]).toMatchObject({ status: "failed", output: { ok: false, revertedTo: "draft.md" } })
    expect(
      (at(detail.tasks[1]!.output, "failures") as ReadonlyArray<{ code: string }>).map((failure) => failure.code)
    ).toEqual(["regression"])
    expect(detail.project.error).toContain("The earlier version was restored")
    const file = await member.client.raw("GET", `/api/files/project/${started.id}/draft.md`)
    expect(file.text).toBe(long)
  })

  it("fail a task that saved no file, the project with it, and raise an alert on the owner's desktop", async () => {
    models.reset()
    scriptStudio(models, { write: () => null })
    const generator = await twoStepGenerator(member.client)
    const started = await startGenerator(member.client, generator.id, { topic: "matcha" })
    const detail = await untilSettled(member.client, started.id)
    expect(detail.project.status).toBe("failed")
    expect(detail.tasks.map((task) => task.status)).toEqual(["failed", "blocked"])
    expect(detail.tasks[0]!.error).toContain("The task saved no file")
    expect(detail.project.error).toContain("1 of 2 tasks failed")
    const open = { status: "open", limit: 100, offset: 0 } as const
    expect(await run(member.client.api.desktop.listSignals({ urlParams: open }))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: "alert",
          source: `studio:${started.id}`,
          title: `Project failed: ${detail.project.title}`
        })
      ])
    )
  })
})

describe("cancel and resume", () => {
  it("stops a run mid-task, and a resume continues without paying for the finished task again", async () => {
    models.reset()
    scriptStudio(models, { delayMs: (title) => (title.startsWith("Report") ? 400 : 0) })
    const generator = await twoStepGenerator(member.client)
    const started = await startGenerator(member.client, generator.id, { topic: "rooibos" })
    await untilSettled(member.client, started.id, (detail) => detail.tasks[1]?.status === "running")
    const projects = member.client.api.studioProjects
    const path = { id: started.id }
    const cancelled = await run(projects.cancelProject({ path }))
    expect(cancelled.status).toBe("cancelled")
    const afterCancel = await untilSettled(member.client, started.id)
    expect(afterCancel.tasks.map((task) => task.status)).toEqual(["done", "cancelled"])
    expect((await refused(projects.cancelProject({ path }))).body.error).toBe("project_not_running")

    const notesCalls = callsFor(models, "Notes on rooibos").length
    const resumed = await run(projects.resumeProject({ path }))
    expect(resumed.status).toBe("running")
    const detail = await untilSettled(
      member.client,
      started.id,
      (found) => found.project.status === "done" || found.project.status === "failed"
    )
    expect(detail.project.status).toBe("done")
    expect(callsFor(models, "Notes on rooibos").length).toBe(notesCalls)
    const again = await refused(projects.resumeProject({ path }))
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("project_not_resumable")
  })
})

describe("scoping and refusals", () => {
  it("keeps every route to the caller's own projects", async () => {
    models.reset()
    scriptStudio(models)
    const mine = await startBrief(member.client, "Write a note on white tea")
    await untilSettled(member.client, mine.id)
    const id = mine.id
    const path = { id }
    const others = owner.client.api.studioProjects
    for (const answer of [
      await refused(others.getProject({ path })),
      await refused(others.projectTrace({ path, urlParams: {} })),
      await refused(others.cancelProject({ path })),
      await refused(others.resumeProject({ path })),
      await refused(others.setProjectDue({ path, payload: { dueAt: "2030-01-01T00:00:00Z" } }))
    ]) {
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe("project_not_found")
    }
    expect((await run(others.listProjects({ urlParams: firstPage }))).map((project) => project.id)).not.toContain(id)
    expect(
      (await run(member.client.api.studioProjects.listProjects({ urlParams: firstPage }))).map((project) => project.id)
    ).toContain(id)
    const ownerPortfolio = await run(others.portfolio({ urlParams: {} }))
    expect(
      Object.values(ownerPortfolio)
        .flat()
        .map((item) => item.project.id)
    ).not.toContain(id)
    const memberPortfolio = await run(member.client.api.studioProjects.portfolio({ urlParams: {} }))
    expect(memberPortfolio.done.map((item) => item.project.id)).toContain(id)
    expect(memberPortfolio.waiting.length).toBeGreaterThan(0)
    expect(await run(others.queue({ urlParams: {} }))).toEqual([])
  })

  it("lists open steps in the queue and holds due dates apart from the task row", async () => {
    models.reset()
    scriptStudio(models, { delayMs: () => 300 })
    const generator = await twoStepGenerator(member.client)
    const started = await startGenerator(member.client, generator.id, { topic: "pu-erh" })
    const running = await untilSettled(member.client, started.id, (detail) => detail.tasks.length === 2)
    const projects = member.client.api.studioProjects
    const queue = await run(projects.queue({ urlParams: {} }))
    expect(queue.filter((item) => item.projectId === started.id).map((item) => item.task.key)).toEqual([
      "notes",
      "report"
    ])
    expect(queue.every((item) => item.assignee === "agent")).toBe(true)
    const path = { id: started.id }
    const due = await run(projects.setProjectDue({ path, payload: { dueAt: "2000-01-01T00:00:00Z" } }))
    expect(due.dueAt).toBe("2000-01-01T00:00:00.000Z")
    const stalled = (await run(projects.portfolio({ urlParams: {} }))).stalled.map((item) => item.project.id)
    expect(stalled).toContain(started.id)
    await run(
      projects.setProjectDue({ path, payload: { dueAt: "2031-02-03T04:05:06Z", taskId: running.tasks[1]!.id } })
    )
    const unknownTask = await refused(
      projects.setProjectDue({ path, payload: { dueAt: "2031-02-03T04:05:06Z", taskId: "nope" } })
    )
    expect(unknownTask.status).toBe(404)
    expect(unknownTask.body.error).toBe("task_not_found")
    // A date the contract's schema refuses before it leaves the typed client: sent raw.
    const badDate = await member.client.raw("PUT", `/api/studio/projects/${started.id}/due`, { dueAt: "next tuesday" })
    expect(badDate.status).toBe(400)
    const detail = await untilSettled(member.client, started.id)
    expect(detail.tasks[1]!.dueAt).toBe("2031-02-03T04:05:06.000Z")
    expect(detail.project.dueAt).toBe("2000-01-01T00:00:00.000Z")
  })

  it("refuses a bad start with a named error and creates nothing", async () => {
    const projects = member.client.api.studioProjects
    const before = (await run(projects.listProjects({ urlParams: firstPage }))).length
    const ownersPrivate = await twoStepGenerator(owner.client)
    const cases: Array<[{ readonly generatorId: string; readonly inputs: Record<string, unknown> }, number, string]> = [
      [{ generatorId: "no-such-generator", inputs: {} }, 404, "generator_not_found"],
      [{ generatorId: ownersPrivate.id, inputs: { topic: "tea" } }, 404, "generator_not_found"],
      [{ generatorId: (await twoStepGenerator(member.client)).id, inputs: { topic: 7 } }, 400, "invalid_inputs"]
    ]
    for (const [payload, status, error] of cases) {
      const answer = await refused(projects.createProject({ payload }))
      expect([answer.status, answer.body.error]).toEqual([status, error])
    }
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const body of [{ brief: "" }, { brief: "Write it", ownerId: owner.being.id }, {}]) {
      const answer = await member.client.raw("POST", "/api/studio/projects", body)
      expect([answer.status, apiError(answer).error]).toEqual([400, "invalid_request"])
    }
    expect((await run(projects.listProjects({ urlParams: firstPage }))).length).toBe(before)
    expect((await refused(projects.getProject({ path: { id: "nope" } }))).status).toBe(404)
  })
})

describe("POST /api/studio/omnibar", () => {
  it("starts a project from a make sentence and refuses anything else with a hint", async () => {
    models.reset()
    scriptStudio(models)
    const omnibar = (text: string) => member.client.api.studioProjects.omnibar({ payload: { text } })
    const refusal = await refused(omnibar("what is the weather like?"))
    expect(refusal.status).toBe(400)
    expect(refusal.body).toMatchObject({
      error: "not_a_make_request",
      details: { hint: expect.stringContaining("make, build, write or draft") }
    })
    const made = await run(omnibar("Draft a welcome letter for new tea club members"))
    expect(made).toMatchObject({
      status: "planning",
      brief: "Draft a welcome letter for new tea club members",
      ownerId: member.being.id
    })
    expect((await untilSettled(member.client, made.id)).project.status).toBe("done")
  })
})
