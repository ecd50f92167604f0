/**
 * Plans and gates over real HTTP with the scripted team: the owner edits the not-started part of
 * a plan (the repair pass runs on it), a run that is going follows the edit, an approval gate
 * holds the run until its person approves (the steps after it then run) or rejects (the project
 * fails with the reason), and every refusal leaves the plan as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { remoteDefault } from "../support/models.ts"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import type { Handler } from "../support/openai-replies.ts"
import { callsFor, scriptStudio, taskTitleOf, type StudioScript } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let author: Registered
let stranger: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
  author = await registerMember(node, owner.client)
  stranger = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const plan = {
  tasks: [
    { id: "notes", title: "Gather notes", role: "researcher" },
    { id: "draft", title: "Draft the letter", role: "writer", dependsOn: ["notes"] }
  ]
}

/** The scripted studio, but the task titled `held` answers only once the returned release is called. */
const holding = (held: string, script: StudioScript = { plan }) => {
  let studio: Handler<"chat"> = () => ({ content: "ok" })
  scriptStudio(
    { handle: (_route: string, handler: Handler<"chat">) => (studio = handler) } as unknown as OpenAiServer,
    script
  )
  let release = () => {}
  const open = new Promise<void>((resolve) => (release = resolve))
  models.handle("chat", async (request) => {
    if (taskTitleOf(request) === held) await open
    return studio(request)
  })
  return release
}

const detail = (id: string, client = author.client) => run(client.api.studioProjects.getProject({ path: { id } }))
const byKey = (found: ProjectDetail, key: string) => found.tasks.find((task) => task.key === key)!
const statusOf = (key: string, status: string) => (found: ProjectDetail) =>
  found.tasks.find((task) => task.key === key)?.status === status
const gateWaits = (found: ProjectDetail) =>
  found.tasks.some((task) => task.kind === "approval" && task.status === "running")
const edit = (id: string, version: number, tasks: ReadonlyArray<Record<string, unknown>>, client = author.client) =>
  client.api.studioProjects.editPlan({ path: { id }, payload: { version, tasks } as never })
/** What the plan is: a refusal must leave every field of it as it was. */
const planOf = (found: ProjectDetail) => ({ version: found.project.planVersion, tasks: found.tasks })

/** A project whose run failed at its draft (the writer saves nothing): notes done, the draft failed. */
const failedProject = async (brief: string) => {
  scriptStudio(models, { plan, write: (title) => (title === "Draft the letter" ? null : undefined) })
  const project = await startBrief(author.client, brief)
  const failed = await untilSettled(author.client, project.id)
  expect(failed.project.status).toBe("failed")
  return failed
}

describe("a plan edit", () => {
  it("refuses what it cannot do, and changes nothing when it refuses", async () => {
    models.reset()
    const failed = await failedProject("Write a letter about the park benches.")
    const id = failed.project.id
    const notes = byKey(failed, "notes")
    const draft = byKey(failed, "draft")
    const before = planOf(failed)
    const wanted = { id: draft.id, title: draft.title, role: "writer", dependsOn: [notes.id] }

    const refusals: Array<[Promise<{ status: number; body: { error: string } }>, number, string]> = [
      [refused(edit(id, 0, [wanted], stranger.client)), 404, "project_not_found"],
      [refused(edit(id, 5, [wanted])), 409, "plan_changed"],
      [
        refused(edit(id, 0, [{ ...wanted }, { id: notes.id, title: "Gather more notes", role: "researcher" }])),
        409,
        "task_started"
      ],
      [
        author.client.raw("PUT", `/api/studio/projects/${id}/plan`, {
          version: 0,
          tasks: [{ ...wanted, title: "  " }]
        }) as never,
        400,
        "invalid_request"
      ],
      [refused(edit(id, 0, [{ ...wanted, assignee: { agentId: "no-such-agent" } }])), 400, "unknown_agent"],
      [refused(edit(id, 0, [{ ...wanted, assignee: { personBeingId: stranger.being.id } }])), 400, "not_in_crew"],
      [
        refused(
          edit(id, 0, [wanted, ...Array.from({ length: 39 }, (_, n) => ({ title: `Step ${n}`, role: "writer" }))])
        ),
        400,
        "plan_too_long"
      ],
      [refused(edit(id, 0, [wanted, { id: "not-a-step", title: "Ghost", role: "writer" }])), 400, "unknown_task"]
    ]
    for (const [answer, status, error] of refusals) {
      const { body, status: got } = await answer
      expect([got, body.error]).toEqual([status, error])
      expect(planOf(await detail(id))).toEqual(before)
    }
  })

  it("goes through the repair pass: a cycle the edit made is broken, an unknown skill dropped, and both are said", async () => {
    models.reset()
    const failed = await failedProject("Write a letter about the bins.")
    const id = failed.project.id
    const draft = byKey(failed, "draft")
    const edited = await run(
      edit(id, 0, [
        { id: draft.id, title: "Draft the letter", role: "writer", dependsOn: ["#1"] },
        { title: "Check the facts", role: "editor", skills: ["files.write", "no.such.skill"], dependsOn: [draft.id] }
      ])
    )
    expect(edited.project.planVersion).toBe(1)
    expect(edited.repairs.map((repair) => repair.kind).sort()).toEqual(["cycle", "unknown-skill"])
    const added = edited.tasks.find((task) => task.title === "Check the facts")!
    expect(added).toMatchObject({ status: "pending", kind: "work", skills: ["files.write"], pinned: false })
    // The cycle lost exactly one edge, so the plan can run.
    const draftNow = edited.tasks.find((task) => task.id === draft.id)!
    expect(draftNow.dependsOn.includes(added.id) && added.dependsOn.includes(draft.id)).toBe(false)
    expect(draftNow.status).toBe("pending")
    const trace = await run(author.client.api.studioProjects.projectTrace({ path: { id }, urlParams: {} }))
    expect(trace.filter((event) => event.text.startsWith("Plan edit repaired:")).length).toBe(2)

    // A resume runs the edited plan.
    scriptStudio(models, { plan })
    await run(author.client.api.studioProjects.resumeProject({ path: { id } }))
    const done = await untilSettled(author.client, id)
    expect(done.project.status).toBe("done")
    expect(callsFor(models, "Check the facts").length).toBeGreaterThan(0)
  })

  it("is refused on a project that is done; of two edits on one version, one wins", async () => {
    models.reset()
    scriptStudio(models, { plan })
    const project = await startBrief(author.client, "Write a letter about the lamps.")
    const done = await untilSettled(author.client, project.id)
    expect(done.project.status).toBe("done")
    const over = await refused(edit(project.id, 0, [{ title: "More", role: "writer" }]))
    expect([over.status, over.body.error]).toEqual([409, "project_over"])
    expect(planOf(await detail(project.id))).toEqual(planOf(done))

    const failed = await failedProject("Write a letter about the trees.")
    const draft = byKey(failed, "draft")
    const answers = await Promise.all(
      ["First", "Second"].map((title) =>
        author.client.raw("PUT", `/api/studio/projects/${failed.project.id}/plan`, {
          version: 0,
          tasks: [{ id: draft.id, title, role: "writer" }]
        })
      )
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409])
    const after = await detail(failed.project.id)
    expect(after.project.planVersion).toBe(1)
    expect(["First", "Second"]).toContain(byKey(after, "draft").title)
  })
})

describe("a gate", () => {
  it("holds the run until its person approves; an edit made while it waits is what the run does next", async () => {
    models.reset()
    const release = holding("Gather notes")
    const project = await startBrief(author.client, "Write a letter about the bridge.")
    const started = await untilSettled(author.client, project.id, statusOf("notes", "running"))
    const draft = byKey(started, "draft")
    const gated = await run(
      edit(project.id, started.project.planVersion, [
        { title: "Check the notes", role: "approver", kind: "approval", dependsOn: [byKey(started, "notes").id] },
        { id: draft.id, title: draft.title, role: "writer", dependsOn: ["#0"] }
      ])
    )
    const gate = gated.tasks.find((task) => task.kind === "approval")!
    expect(gate).toMatchObject({ status: "pending", assigneeBeingId: author.being.id, pinned: true })
    release()

    const waiting = await untilSettled(author.client, project.id, gateWaits)
    const queued = (await run(author.client.api.studioProjects.queue({ urlParams: {} }))).find(
      (item) => item.task.id === gate.id
    )
    expect(queued).toMatchObject({ assignee: "person", kind: "approval", task: { status: "running" } })
    expect(callsFor(models, "Draft the letter")).toEqual([])

    // While the gate waits, one more step after the draft, and one beside the gate that starts at once.
    await run(
      edit(project.id, waiting.project.planVersion, [
        { id: draft.id, title: draft.title, role: "writer", dependsOn: [gate.id] },
        { title: "Sum it up", role: "writer", dependsOn: [draft.id] },
        { title: "Side note", role: "writer", dependsOn: [byKey(started, "notes").id] }
      ])
    )
    const beside = await untilSettled(author.client, project.id, (found) =>
      found.tasks.some((task) => task.title === "Side note" && task.status === "done")
    )
    expect(beside.tasks.find((task) => task.kind === "approval")?.status).toBe("running")

    const finish = await refused(
      author.client.api.studioProjects.finishStep({ path: { taskId: gate.id }, payload: { output: "Done." } })
    )
    expect([finish.status, finish.body.error]).toEqual([409, "not_an_approval"])
    const byStranger = await refused(
      stranger.client.api.studioProjects.approveStep({ path: { taskId: gate.id }, payload: {} })
    )
    expect([byStranger.status, byStranger.body.error]).toEqual([404, "task_not_found"])
    const notHeld = await refused(
      author.client.api.studioProjects.approveStep({ path: { taskId: draft.id }, payload: {} })
    )
    expect([notHeld.status, notHeld.body.error]).toEqual([404, "task_not_found"])
    expect(byKey(await detail(project.id), gate.key).status).toBe("running")

    const approved = await run(
      author.client.api.studioProjects.approveStep({ path: { taskId: gate.id }, payload: { note: "Looks right." } })
    )
    expect(approved).toMatchObject({ id: gate.id, status: "done" })
    const again = await refused(
      author.client.api.studioProjects.approveStep({ path: { taskId: gate.id }, payload: {} })
    )
    expect([again.status, again.body.error]).toEqual([409, "step_not_waiting"])

    const done = await untilSettled(author.client, project.id)
    expect(done.project.status).toBe("done")
    expect(done.tasks.map((task) => [task.title, task.status])).toEqual([
      ["Gather notes", "done"],
      ["Check the notes", "done"],
      ["Draft the letter", "done"],
      ["Sum it up", "done"],
      ["Side note", "done"]
    ])
    expect(callsFor(models, "Sum it up").length).toBeGreaterThan(0)
  })

  it("fails the project with the reason when rejected; the owner edits the gate away and resumes", async () => {
    models.reset()
    const release = holding("Gather notes")
    const project = await startBrief(author.client, "Write a letter about the swings.")
    const started = await untilSettled(author.client, project.id, statusOf("notes", "running"))
    const notes = byKey(started, "notes")
    const draft = byKey(started, "draft")
    // A person's work step too: the owner holds it, and it is no approval.
    await run(
      edit(project.id, started.project.planVersion, [
        { title: "Approve the notes", role: "approver", kind: "approval", dependsOn: [notes.id] },
        { id: draft.id, title: draft.title, role: "writer", dependsOn: ["#0"] }
      ])
    )
    release()
    const waiting = await untilSettled(author.client, project.id, gateWaits)
    const gate = waiting.tasks.find((task) => task.kind === "approval")!

    const empty = await author.client.raw("POST", `/api/studio/queue/${gate.id}/reject`, { note: "" })
    expect(empty.status).toBe(400)
    const rejected = await run(
      author.client.api.studioProjects.rejectStep({
        path: { taskId: gate.id },
        payload: { note: "The notes miss the playground." }
      })
    )
    expect(rejected).toMatchObject({ status: "failed", error: "The notes miss the playground." })
    const failed = await untilSettled(author.client, project.id)
    expect(failed.project.status).toBe("failed")
    expect(failed.project.error).toContain("The notes miss the playground.")
    expect(byKey(failed, draft.key).status).toBe("blocked")
    expect(callsFor(models, "Draft the letter")).toEqual([])

    // The rejected gate is editable now the run has stopped: removed, and the draft back to pending.
    const edited = await run(
      edit(project.id, failed.project.planVersion, [
        {
          id: draft.id,
          title: draft.title,
          role: "writer",
          dependsOn: [notes.id],
          assignee: { personBeingId: author.being.id }
        }
      ])
    )
    expect(edited.tasks.map((task) => [task.title, task.status])).toEqual([
      ["Gather notes", "done"],
      ["Draft the letter", "pending"]
    ])
    await run(author.client.api.studioProjects.resumeProject({ path: { id: project.id } }))
    const held = await untilSettled(author.client, project.id, statusOf("draft", "running"))
    const notAGate = await refused(
      author.client.api.studioProjects.approveStep({ path: { taskId: draft.id }, payload: {} })
    )
    expect([notAGate.status, notAGate.body.error]).toEqual([409, "not_an_approval"])
    expect(byKey(held, "draft").assigneeBeingId).toBe(author.being.id)
    await run(
      author.client.api.studioProjects.finishStep({
        path: { taskId: draft.id },
        payload: { output: "Dear council, the swings need oil." }
      })
    )
    expect((await untilSettled(author.client, project.id)).project.status).toBe("done")
  })
})
