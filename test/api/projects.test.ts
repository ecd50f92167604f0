/**
 * Studio projects on a real node over real HTTP, with a scripted team on the scripted OpenAI
 * server: a generator run and a brief run to done with their outputs, the deliverable checks
 * and repairs, plan repair, and who may see what.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { Client, registerMember, registerOwner, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { callsFor, isPlannerCall, isReviewCall, scriptStudio } from "./projects-scripted.ts"
import { twoStepGenerator, untilSettled } from "./projects-support.ts"

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
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "green tea" } })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ status: "planning", generatorId: generator.id, ownerId: member.being.id, outputs: [] })

    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task: any) => [task.key, task.status])).toEqual([["notes", "done"], ["report", "done"]])
    expect(detail.tasks[1].dependsOn).toEqual([detail.tasks[0].id])
    expect(detail.tasks[0].output).toMatchObject({ ok: true, file: "notes-on-green-tea.md", repairs: 0 })
    expect(detail.team.members.map((m: any) => m.role)).toEqual(["researcher", "writer"])
    expect(detail.tasks.every((task: any) => detail.team.memberAgentIds.includes(task.assigneeAgentId))).toBe(true)
    expect(detail.review).toMatchObject({ verdict: "pass", notes: "Does what the brief asks." })
    expect(detail.project.outputs.map((output: any) => [output.path, output.kind, output.url])).toEqual([
      ["notes-on-green-tea.md", "markdown", `/api/files/project/${started.body.id}/notes-on-green-tea.md`],
      ["report-on-green-tea.md", "markdown", `/api/files/project/${started.body.id}/report-on-green-tea.md`]
    ])

    // The planner (strong tier, o3) was never asked; the strong tier served only the QA review.
    expect(models.requestsFor("chat").filter(isPlannerCall)).toEqual([])
    expect(models.requestsFor("chat").filter((request) => request.model === "o3").every(isReviewCall)).toBe(true)
    expect(models.requestsFor("chat").filter(isReviewCall)).toHaveLength(1)
    // The second step read the first one's output through its template.
    const reportCall = callsFor(models, "Report on green tea")[0]
    expect(JSON.stringify(reportCall.body.messages)).toContain("The work of the task Notes on green tea")
    expect(reportCall.body.tools.map((tool: any) => tool.function.name)).toContain("files__write")

    const file = await member.client.get(detail.project.outputs[1].url)
    expect(file.status).toBe(200)
    expect(file.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
    expect(file.text).toContain("# Report on green tea")
    expect(file.headers.get("content-security-policy")).toBe("sandbox")
    expect((await owner.client.get(detail.project.outputs[1].url)).status).toBe(404)
    expect((await new Client(node.url).get(detail.project.outputs[1].url)).status).toBe(401)
    expect((await member.client.get(`/api/files/project/${started.body.id}/missing.md`)).status).toBe(404)
    const climbing = await member.client.get(`/api/files/project/${started.body.id}/..%2f..%2fnode.db`)
    expect([climbing.status, climbing.body.error]).toEqual([400, "invalid_path"])

    const trace = await member.client.get(`/api/studio/projects/${started.body.id}/trace`)
    const kinds = new Set(trace.body.map((event: any) => event.kind))
    expect([...kinds]).toEqual(expect.arrayContaining(["plan", "tool.call", "tool.result", "message", "output", "done"]))
    const after = await member.client.get(`/api/studio/projects/${started.body.id}/trace?after=${trace.body.at(-2).id}`)
    expect(after.body).toEqual([trace.body.at(-1)])
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
    const started = await member.client.post("/api/studio/projects", { brief: "A short guide to brewing green tea\nfor beginners" })
    expect(started.status).toBe(200)
    expect(started.body).toMatchObject({ status: "planning", title: "A short guide to brewing green tea", generatorId: null })
    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.project.status).toBe("done")
    expect(models.requestsFor("chat").filter(isPlannerCall).map((request) => request.model)).toEqual(["o3"])
    expect(detail.tasks.map((task: any) => task.key)).toEqual(["research", "outline", "draft"])
    expect(detail.tasks.every((task: any) => task.status === "done")).toBe(true)
    const trace = (await member.client.get(`/api/studio/projects/${started.body.id}/trace`)).body
    const repairs = trace.filter((event: any) => event.kind === "plan" && event.data?.repair !== undefined).map((event: any) => event.data.repair.kind)
    expect(repairs).toEqual(["cycle", "research"])
    expect(detail.project.costUsd).toBeGreaterThan(0)
  })
})

describe("the deliverable checks", () => {
  it("feed a failing deliverable back as a repair, which then passes", async () => {
    models.reset()
    scriptStudio(models, {
      write: (title, repair) => !title.startsWith("Essay") ? undefined : ({
        path: "essay.md",
        content: repair === 0 ? `# ${title}\n\nA first go without its sources.\n` : `# ${title}\n\nA first go.\n\n## Sources\n\n- https://example.org/a\n`
      })
    })
    const generator = await twoStepGenerator(member.client, {
      steps: [{
        id: "essay", title: "Essay on {{inputs.topic}}", role: "writer", skills: ["files.write"], instruction: "Write it.",
        deliverable: { file: "essay.md", requireSections: ["Sources"] }
      }]
    })
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "oolong" } })
    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.map((task: any) => task.key)).toEqual(["research", "essay"])
    expect(detail.tasks[1].output).toMatchObject({ ok: true, file: "essay.md", repairs: 1, failures: [] })
    const repairCall = callsFor(models, "Essay on oolong").find((request) => JSON.stringify(request.body.messages).includes("did not pass its checks"))
    expect(JSON.stringify(repairCall?.body.messages)).toContain('lacks the section \\"Sources\\"')
  })

  it("put a revision that lost too much back to the earlier version", async () => {
    models.reset()
    const long = `# Draft\n\n${"Green tea is steeped briefly in water below boiling. ".repeat(20)}\n\nSee https://example.org/tea and https://example.org/water.\n`
    scriptStudio(models, {
      write: (title) => title.startsWith("Edit") ? { path: "draft.md", content: "# Draft\n\nTea.\n" } : title.startsWith("Draft") ? { path: "draft.md", content: long } : undefined
    })
    const generator = await twoStepGenerator(member.client, {
      steps: [
        { id: "draft", title: "Draft on {{inputs.topic}}", role: "researcher", skills: ["files.write"], instruction: "Draft it.", deliverable: { file: "draft.md" } },
        {
          id: "edit", title: "Edit on {{inputs.topic}}", role: "editor", skills: ["files.write"], dependsOn: ["draft"], instruction: "Tighten the draft.",
          deliverable: { revises: "draft.md", maxRepairs: 0 }
        }
      ]
    })
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "sencha" } })
    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.project.status).toBe("failed")
    expect(detail.tasks[1]).toMatchObject({ status: "failed", output: { ok: false, revertedTo: "draft.md" } })
    expect(detail.tasks[1].output.failures.map((failure: any) => failure.code)).toEqual(["regression"])
    expect(detail.project.error).toContain("The earlier version was restored")
    const file = await member.client.get(`/api/files/project/${started.body.id}/draft.md`)
    expect(file.text).toBe(long)
  })

  it("fail a task that saved no file, the project with it, and raise an alert on the owner's desktop", async () => {
    models.reset()
    scriptStudio(models, { write: () => null })
    const generator = await twoStepGenerator(member.client)
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "matcha" } })
    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.project.status).toBe("failed")
    expect(detail.tasks.map((task: any) => task.status)).toEqual(["failed", "blocked"])
    expect(detail.tasks[0].error).toContain("The task saved no file")
    expect(detail.project.error).toContain("1 of 2 tasks failed")
    const signals = (await member.client.get("/api/desktop/signals")).body
    expect(signals).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: "alert", source: `studio:${started.body.id}`, title: `Project failed: ${detail.project.title}` })
    ]))
  })
})

describe("cancel and resume", () => {
  it("stops a run mid-task, and a resume continues without paying for the finished task again", async () => {
    models.reset()
    scriptStudio(models, { delayMs: (title) => (title.startsWith("Report") ? 400 : 0) })
    const generator = await twoStepGenerator(member.client)
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "rooibos" } })
    await untilSettled(member.client, started.body.id, (detail) => detail.tasks[1]?.status === "running")
    const cancelled = await member.client.post(`/api/studio/projects/${started.body.id}/cancel`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe("cancelled")
    const afterCancel = await untilSettled(member.client, started.body.id)
    expect(afterCancel.tasks.map((task: any) => task.status)).toEqual(["done", "cancelled"])
    expect((await member.client.post(`/api/studio/projects/${started.body.id}/cancel`)).body.error).toBe("project_not_running")

    const notesCalls = callsFor(models, "Notes on rooibos").length
    const resumed = await member.client.post(`/api/studio/projects/${started.body.id}/resume`)
    expect(resumed.status).toBe(200)
    expect(resumed.body.status).toBe("running")
    const detail = await untilSettled(member.client, started.body.id, (found) => found.project.status === "done" || found.project.status === "failed")
    expect(detail.project.status).toBe("done")
    expect(callsFor(models, "Notes on rooibos").length).toBe(notesCalls)
    const again = await member.client.post(`/api/studio/projects/${started.body.id}/resume`)
    expect(again.status).toBe(409)
    expect(again.body.error).toBe("project_not_resumable")
  })
})

describe("scoping and refusals", () => {
  it("keeps every route to the caller's own projects", async () => {
    models.reset()
    scriptStudio(models)
    const mine = await member.client.post("/api/studio/projects", { brief: "Write a note on white tea" })
    await untilSettled(member.client, mine.body.id)
    const id = mine.body.id
    for (const answer of [
      await owner.client.get(`/api/studio/projects/${id}`),
      await owner.client.get(`/api/studio/projects/${id}/trace`),
      await owner.client.post(`/api/studio/projects/${id}/cancel`),
      await owner.client.post(`/api/studio/projects/${id}/resume`),
      await owner.client.request("PUT", `/api/studio/projects/${id}/due`, { dueAt: "2030-01-01T00:00:00Z" })
    ]) {
      expect(answer.status).toBe(404)
      expect(answer.body.error).toBe("project_not_found")
    }
    expect((await owner.client.get("/api/studio/projects")).body.map((project: any) => project.id)).not.toContain(id)
    expect((await member.client.get("/api/studio/projects")).body.map((project: any) => project.id)).toContain(id)
    const ownerPortfolio = (await owner.client.get("/api/studio/portfolio")).body
    expect(Object.values(ownerPortfolio).flat().map((item: any) => item.project.id)).not.toContain(id)
    const memberPortfolio = (await member.client.get("/api/studio/portfolio")).body
    expect(memberPortfolio.done.map((item: any) => item.project.id)).toContain(id)
    expect(memberPortfolio.waiting.length).toBeGreaterThan(0)
    expect((await owner.client.get("/api/studio/queue")).body).toEqual([])
  })

  it("lists open steps in the queue and holds due dates apart from the task row", async () => {
    models.reset()
    scriptStudio(models, { delayMs: () => 300 })
    const generator = await twoStepGenerator(member.client)
    const started = await member.client.post("/api/studio/projects", { generatorId: generator.id, inputs: { topic: "pu-erh" } })
    const running = await untilSettled(member.client, started.body.id, (detail) => detail.tasks.length === 2)
    const queue = (await member.client.get("/api/studio/queue")).body
    expect(queue.filter((item: any) => item.projectId === started.body.id).map((item: any) => item.task.key)).toEqual(["notes", "report"])
    expect(queue.every((item: any) => item.assignee === "agent")).toBe(true)
    const due = await member.client.request("PUT", `/api/studio/projects/${started.body.id}/due`, { dueAt: "2000-01-01T00:00:00Z" })
    expect(due.status).toBe(200)
    expect(due.body.dueAt).toBe("2000-01-01T00:00:00.000Z")
    const stalled = (await member.client.get("/api/studio/portfolio")).body.stalled.map((item: any) => item.project.id)
    expect(stalled).toContain(started.body.id)
    const taskDue = await member.client.request("PUT", `/api/studio/projects/${started.body.id}/due`, { dueAt: "2031-02-03T04:05:06Z", taskId: running.tasks[1].id })
    expect(taskDue.status).toBe(200)
    const unknownTask = await member.client.request("PUT", `/api/studio/projects/${started.body.id}/due`, { dueAt: "2031-02-03T04:05:06Z", taskId: "nope" })
    expect(unknownTask.status).toBe(404)
    expect(unknownTask.body.error).toBe("task_not_found")
    const badDate = await member.client.request("PUT", `/api/studio/projects/${started.body.id}/due`, { dueAt: "next tuesday" })
    expect(badDate.status).toBe(400)
    const detail = await untilSettled(member.client, started.body.id)
    expect(detail.tasks[1].dueAt).toBe("2031-02-03T04:05:06.000Z")
    expect(detail.project.dueAt).toBe("2000-01-01T00:00:00.000Z")
  })

  it("refuses a bad start with a named error and creates nothing", async () => {
    const before = (await member.client.get("/api/studio/projects")).body.length
    const ownersPrivate = await twoStepGenerator(owner.client)
    const cases: Array<[unknown, number, string]> = [
      [{ generatorId: "no-such-generator", inputs: {} }, 404, "generator_not_found"],
      [{ generatorId: ownersPrivate.id, inputs: { topic: "tea" } }, 404, "generator_not_found"],
      [{ generatorId: (await twoStepGenerator(member.client)).id, inputs: { topic: 7 } }, 400, "invalid_inputs"],
      [{ brief: "" }, 400, "invalid_request"],
      [{ brief: "Write it", ownerId: owner.being.id }, 400, "invalid_request"],
      [{}, 400, "invalid_request"]
    ]
    for (const [body, status, error] of cases) {
      const answer = await member.client.post("/api/studio/projects", body)
      expect([answer.status, answer.body.error]).toEqual([status, error])
    }
    expect((await member.client.get("/api/studio/projects")).body.length).toBe(before)
    expect((await member.client.get("/api/studio/projects/nope")).status).toBe(404)
  })
})

describe("POST /api/studio/omnibar", () => {
  it("starts a project from a make sentence and refuses anything else with a hint", async () => {
    models.reset()
    scriptStudio(models)
    const refused = await member.client.post("/api/studio/omnibar", { text: "what is the weather like?" })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: "not_a_make_request", details: { hint: expect.stringContaining("make, build, write or draft") } })
    const made = await member.client.post("/api/studio/omnibar", { text: "Draft a welcome letter for new tea club members" })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ status: "planning", brief: "Draft a welcome letter for new tea club members", ownerId: member.being.id })
    expect((await untilSettled(member.client, made.body.id)).project.status).toBe("done")
  })
})
