/**
 * Crews over real HTTP with the scripted team: a group bound to a project gives the step whose
 * role a member sits in to that person; the step is in their queue (and the owner's), only they
 * can hand it in, and the run goes on with what they handed in. Every refusal of the crew route.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import {
  type Client,
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
import { callsFor, isPlannerCall, scriptStudio } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"
import { until } from "../support/until.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let author: Registered
let writer: Registered
let stranger: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
  author = await registerMember(node, owner.client)
  writer = await registerMember(node, owner.client)
  stranger = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const plan = {
  tasks: [
    { id: "notes", title: "Gather notes", role: "researcher" },
    { id: "draft", title: "Draft the letter", role: "writer", dependsOn: ["notes"] },
    { id: "polish", title: "Polish the letter", role: "editor", dependsOn: ["draft"] }
  ]
}

/** Polls the caller's queue until `matches` finds an item (the run moves on its own). */
const untilQueued = (
  client: Client,
  matches: (item: { task: { id: string; status: string; title: string } }) => boolean
) => {
  let queue: ReadonlyArray<{ task: { id: string; status: string; title: string } }> = []
  return until(
    () => `an item of the queue to match: ${JSON.stringify(queue)}`,
    async () => {
      queue = await run(client.api.studioProjects.queue({ urlParams: {} }))
      return queue.find(matches)
    },
    20_000,
    25
  )
}

describe("a crew", () => {
  it("draws a person into the run: their step waits in their queue until they hand it in, and the run goes on", async () => {
    models.reset()
    // The planner answers only once the crew is bound, so this run's team is the crew's.
    let releasePlanner = () => {}
    const bound = new Promise<void>((resolve) => (releasePlanner = resolve))
    gatedStudio(bound)

    const crew = await run(author.client.api.groups.createGroup({ payload: { name: "Letter crew", kind: "crew" } }))
    await run(
      author.client.api.groups.addMember({
        path: { id: crew.id },
        payload: { beingId: writer.being.id, role: "Writer" }
      })
    )
    const project = await startBrief(author.client, "Write a letter to the council about the bus stop.")
    const set = await run(
      author.client.api.groups.setCrew({
        path: { projectId: project.id },
        payload: { groupId: crew.id, includeDescendants: false }
      })
    )
    expect(set).toMatchObject({ projectId: project.id, groupId: crew.id, includeDescendants: false })
    expect(await run(author.client.api.groups.getCrew({ path: { projectId: project.id } }))).toEqual(set)
    releasePlanner()

    const held = await untilQueued(
      writer.client,
      (item) => item.task.title === "Draft the letter" && item.task.status === "running"
    )
    expect(held).toMatchObject({
      projectId: project.id,
      assignee: "person",
      task: { assigneeBeingId: writer.being.id, assigneeAgentId: writer.being.id }
    })
    const ownersView = await run(author.client.api.studioProjects.queue({ urlParams: {} }))
    expect(ownersView.find((item) => item.task.id === held.task.id)?.assignee).toBe("person")
    expect(ownersView.find((item) => item.task.title === "Polish the letter")?.assignee).toBe("agent")
    const detail = await run(author.client.api.studioProjects.getProject({ path: { id: project.id } }))
    expect(detail.team?.members.map((member) => [member.role, member.source])).toEqual([
      ["researcher", "persona"],
      ["writer", "person"],
      ["editor", "persona"]
    ])
    // No model was asked to draft: the step is the person's.
    expect(callsFor(models, "Draft the letter")).toEqual([])

    const byOwner = await refused(
      author.client.api.studioProjects.finishStep({ path: { taskId: held.task.id }, payload: { output: "Mine." } })
    )
    expect([byOwner.status, byOwner.body.error]).toEqual([403, "not_your_step"])
    const byStranger = await refused(
      stranger.client.api.studioProjects.finishStep({ path: { taskId: held.task.id }, payload: { output: "Mine." } })
    )
    expect([byStranger.status, byStranger.body.error]).toEqual([404, "task_not_found"])
    const agentsStep = detail.tasks.find((task) => task.key === "polish")!
    const notHeld = await refused(
      writer.client.api.studioProjects.finishStep({ path: { taskId: agentsStep.id }, payload: { output: "Mine." } })
    )
    expect([notHeld.status, notHeld.body.error]).toEqual([404, "task_not_found"])

    const letter = "Dear council, the bus stop on Elm Street needs a shelter. Yours, a neighbour."
    const finished = await run(
      writer.client.api.studioProjects.finishStep({ path: { taskId: held.task.id }, payload: { output: letter } })
    )
    expect(finished).toMatchObject({ id: held.task.id, status: "done" })
    const again = await refused(
      writer.client.api.studioProjects.finishStep({ path: { taskId: held.task.id }, payload: { output: letter } })
    )
    expect([again.status, again.body.error]).toEqual([409, "step_not_waiting"])

    const settled = await untilSettled(author.client, project.id)
    expect(settled.project.status).toBe("done")
    expect(settled.tasks.map((task) => [task.key, task.status])).toEqual([
      ["notes", "done"],
      ["draft", "done"],
      ["polish", "done"]
    ])
    // The step after it read what the person handed in.
    expect(JSON.stringify(callsFor(models, "Polish the letter")[0]!.body.messages)).toContain(
      "the bus stop on Elm Street needs a shelter"
    )
    expect(
      (await run(writer.client.api.studioProjects.queue({ urlParams: {} }))).find(
        (item) => item.task.id === held.task.id
      )
    ).toBeUndefined()
  })

  it("gives the steps not done to the crew when it is bound after the team was made: a resume draws the person", async () => {
    models.reset()
    const twoSteps = { tasks: [plan.tasks[0]!, plan.tasks[1]!] }
    // The agent writer saves nothing, so the run fails at the draft with the notes done.
    scriptStudio(models, { plan: twoSteps, write: (title) => (title === "Draft the letter" ? null : undefined) })
    const crew = await run(author.client.api.groups.createGroup({ payload: { name: "Second crew", kind: "crew" } }))
    await run(
      author.client.api.groups.addMember({
        path: { id: crew.id },
        payload: { beingId: writer.being.id, role: "writer" }
      })
    )
    const project = await startBrief(author.client, "Write a letter about the library hours.")
    const failed = await untilSettled(author.client, project.id)
    expect(failed.project.status).toBe("failed")
    const notesAgent = failed.tasks[0]!.assigneeAgentId

    await run(
      author.client.api.groups.setCrew({
        path: { projectId: project.id },
        payload: { groupId: crew.id, includeDescendants: false }
      })
    )
    await run(author.client.api.studioProjects.resumeProject({ path: { id: project.id } }))
    const held = await untilQueued(
      writer.client,
      (item) => item.task.title === "Draft the letter" && item.task.status === "running"
    )
    await run(
      writer.client.api.studioProjects.finishStep({
        path: { taskId: held.task.id },
        payload: { output: "Dear library, please open on Sundays." }
      })
    )
    const done = await untilSettled(author.client, project.id)
    expect(done.project.status).toBe("done")
    // The finished step kept who did it; only the open one went to the person.
    expect(done.tasks.map((task) => [task.key, task.assigneeAgentId, task.assigneeBeingId])).toEqual([
      ["notes", notesAgent, null],
      ["draft", writer.being.id, writer.being.id]
    ])
  })

  it("is bound by the project's owner or the node's owner, from a group they are in, and with its descendants only by a lead", async () => {
    models.reset()
    scriptStudio(models, { plan })
    const company = await run(owner.client.api.groups.createGroup({ payload: { name: "Company", kind: "company" } }))
    const team = await run(
      owner.client.api.groups.createGroup({ payload: { name: "Team", kind: "team", parentId: company.id } })
    )
    await run(
      owner.client.api.groups.addMember({
        path: { id: team.id },
        payload: { beingId: author.being.id, role: "member" }
      })
    )
    const project = await startBrief(author.client, "Write a note about the garden.")
    const crewOf = (who: Registered, groupId: string | null, includeDescendants = false) =>
      refused(
        who.client.api.groups.setCrew({ path: { projectId: project.id }, payload: { groupId, includeDescendants } })
      )

    const byStranger = await crewOf(stranger, team.id)
    expect([byStranger.status, byStranger.body.error]).toEqual([404, "project_not_found"])
    const read = await refused(stranger.client.api.groups.getCrew({ path: { projectId: project.id } }))
    expect([read.status, read.body.error]).toEqual([404, "project_not_found"])
    const missing = await refused(
      author.client.api.groups.setCrew({
        path: { projectId: "no-such-project" },
        payload: { groupId: null, includeDescendants: false }
      })
    )
    expect([missing.status, missing.body.error]).toEqual([404, "project_not_found"])
    const notIn = await crewOf(author, company.id)
    expect([notIn.status, notIn.body.error]).toEqual([403, "not_a_member"])
    const notLead = await crewOf(author, team.id, true)
    expect([notLead.status, notLead.body.error]).toEqual([403, "not_a_lead"])
    const noGroup = await crewOf(author, "no-such-group")
    expect([noGroup.status, noGroup.body.error]).toEqual([404, "group_not_found"])
    const bad = await author.client.raw("PUT", `/api/projects/${project.id}/crew`, {
      groupId: team.id,
      beingId: author.being.id
    })
    expect(bad.status).toBe(400)
    // Nothing was bound by any of those.
    expect(await run(author.client.api.groups.getCrew({ path: { projectId: project.id } }))).toMatchObject({
      groupId: null,
      setAt: null
    })

    expect(
      await run(
        author.client.api.groups.setCrew({
          path: { projectId: project.id },
          payload: { groupId: team.id, includeDescendants: false }
        })
      )
    ).toMatchObject({ groupId: team.id, includeDescendants: false })
    // The node's owner leads the company (they made it) and may draw from below it.
    expect(
      await run(
        owner.client.api.groups.setCrew({
          path: { projectId: project.id },
          payload: { groupId: company.id, includeDescendants: true }
        })
      )
    ).toMatchObject({ groupId: company.id, includeDescendants: true })
    expect(
      await run(
        author.client.api.groups.setCrew({
          path: { projectId: project.id },
          payload: { groupId: null, includeDescendants: false }
        })
      )
    ).toMatchObject({ groupId: null, includeDescendants: false })
    await untilSettled(author.client, project.id)
  })
})

/** The scripted studio, but the planner answers only once `gate` opens. */
const gatedStudio = (gate: Promise<void>) => {
  let studio: Handler<"chat"> = () => ({ content: "ok" })
  scriptStudio(
    { handle: (_route: string, handler: Handler<"chat">) => (studio = handler) } as unknown as OpenAiServer,
    { plan }
  )
  models.handle("chat", async (request) => {
    if (isPlannerCall(request)) await gate
    return studio(request)
  })
}
