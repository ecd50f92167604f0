/**
 * A project's agent thread on a real node, against the scripted model server: the run's own
 * steps write to it as they go (the plan, each task finished or failed with its agent's name, a
 * call waiting for approval, the review's verdict), each note `message.created` on the thread's
 * topic; the owner's inbox lists it read-only, and a message posted to it is refused.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { remoteDefault } from "../support/models.ts"
import {
  refused,
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { worldActingSkill, writeWorldActingPlugin } from "../support/world-acting-plugin.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode((dataDir) => ({ ...remoteDefault(models.baseUrl), pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  writeWorldActingPlugin(join(node.dataDir, "plugins"))
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "courier", granted: ["world-acting", "filesystem"] } })
  )
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const messagesOf = (threadId: string) => run(owner.client.api.threads.listMessages({ path: { id: threadId } }))

describe("a project's agent thread", () => {
  it("carries the run's notes as they happen, read-only, for the project's owner alone", async () => {
    models.reset()
    scriptStudio(models, {
      plan: {
        tasks: [
          { id: "announce", title: "Announce the tasting", role: "marketer", skills: [worldActingSkill, "web.search"] },
          { id: "notes", title: "Write the tasting notes", role: "writer", dependsOn: ["announce"] }
        ]
      },
      extraCall: (title) =>
        title === "Announce the tasting"
          ? { name: "courier__send", arguments: { to: "tea-club", text: "Tasting on Friday" } }
          : null,
      // The second task is slow, so the tab below follows the thread before the run ends.
      delayMs: (title) => (title === "Write the tasting notes" ? 1500 : 0)
    })
    const tab = await LiveTab.open(node, owner.client)
    const started = await startBrief(owner.client, "Plan the tea tasting")
    const first = await tab.nextOf("thread.updated", (frame) => frame.thread.kind === "agent", 15_000)
    expect(first.thread).toMatchObject({
      kind: "agent",
      title: started.title,
      replyPolicy: "none",
      participants: [owner.being.id]
    })
    const threadId = first.thread.id
    tab.send({ type: "subscribe", topic: `thread:${threadId}` })
    await tab.nextOf("subscribed")
    // The announcement's step waits for the owner's decision; they say "Do it" and the run goes on.
    const waiting = await untilSettled(owner.client, started.id, (detail) => detail.tasks[0]?.status === "waiting")
    await run(
      owner.client.api.desktop.answerSignal({
        path: { id: waiting.tasks[0]!.decisionSignalId! },
        payload: { optionId: "do-it" }
      })
    )
    const done = await tab.nextOf(
      "message.created",
      (frame) => frame.message.content === "The project is done.",
      30_000
    )
    expect(done.message).toMatchObject({ threadId, role: "assistant", authorId: null })
    expect((await untilSettled(owner.client, started.id)).project.status).toBe("done")

    const notes = (await messagesOf(threadId)).map((message) => message.content)
    expect(notes[0]).toBe("The plan: 2 tasks. 1. Announce the tasting (marketer); 2. Write the tasting notes (writer)")
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^\S.* wants to run courier\.send, which acts on the world: it waits for your approval on your desktop\.$/
        ),
        expect.stringMatching(/^You approved courier\.send: \S.* goes on with its result\.$/),
        expect.stringMatching(/^\S.* \(marketer\) finished "Announce the tasting": Announce the tasting$/),
        expect.stringMatching(/^\S.* \(writer\) finished "Write the tasting notes": Write the tasting notes$/),
        "The review's verdict: pass. Does what the brief asks.",
        "The project is done."
      ])
    )
    // In the order the run went: the plan first, the verdict and the end last.
    expect(notes.slice(-2)).toEqual(["The review's verdict: pass. Does what the brief asks.", "The project is done."])

    const inbox = await run(owner.client.api.threads.listThreads({ urlParams: firstPage }))
    expect(inbox.find((thread) => thread.id === threadId)).toMatchObject({
      kind: "agent",
      replyPolicy: "none",
      preview: "The project is done."
    })
    const post = await refused(
      owner.client.api.threads.postMessage({ path: { id: threadId }, payload: { content: "Thanks, team" } })
    )
    expect(post).toMatchObject({ status: 409, body: { error: "thread_read_only" } })
    expect((await messagesOf(threadId)).length).toBe(notes.length)
    // Nobody else is in it.
    expect((await refused(member.client.api.threads.listMessages({ path: { id: threadId } }))).status).toBe(404)
    await tab.close()
  })

  it("says which task failed and why the run stopped", async () => {
    models.reset()
    scriptStudio(models, { plan: { tasks: [{ id: "write", title: "Write it", role: "writer" }] }, write: () => null })
    const started = await startBrief(member.client, "Write nothing at all")
    expect((await untilSettled(member.client, started.id)).project.status).toBe("failed")
    const threads = await run(member.client.api.threads.listThreads({ urlParams: { kind: "agent", ...firstPage } }))
    expect(threads.map((thread) => thread.title)).toEqual([started.title])
    const notes = (await run(member.client.api.threads.listMessages({ path: { id: threads[0]!.id } }))).map(
      (message) => message.content
    )
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\S.* \(\w+\) failed "[^"]+": No file was saved/),
        expect.stringMatching(/^The run stopped: 1 of \d tasks failed\./)
      ])
    )
  })

  it("tells the project's owner what an agent is doing while it works a task, and clears it when the task ends", async () => {
    models.reset()
    scriptStudio(models, { plan: { tasks: [{ id: "write", title: "Write the menu", role: "writer" }] } })
    const tab = await LiveTab.open(node, member.client)
    const started = await startBrief(member.client, "A menu for Friday")
    const working = await tab.nextOf(
      "presence.update",
      (frame) => frame.doing === "Working on “Write the menu”",
      15_000
    )
    expect(working).toMatchObject({ status: "online" })
    const cleared = await tab.nextOf("presence.update", (frame) => frame.beingId === working.beingId, 15_000)
    expect(cleared).toMatchObject({ beingId: working.beingId, status: "offline" })
    expect(cleared.doing).toBeUndefined()
    expect((await untilSettled(member.client, started.id)).project.status).toBe("done")
    await tab.close()
  })
})
