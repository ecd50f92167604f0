/**
 * The tool-calling loop's limit is the task's (the first document: "Tool-calling loop steps per
 * task: 10"), its repair passes included: an agent that never stops calling tools makes ten model
 * calls in all, not ten a pass, and its task fails without a repair pass it has no call left for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { registerOwner, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { callsFor, isPlannerCall, isReviewCall } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

describe("the tool-calling loop", () => {
  it("stops an agent that never finishes after ten model calls for the whole task, repairs included", async () => {
    let call = 0
    models.handle("chat", (request) => {
      if (isPlannerCall(request))
        return { content: JSON.stringify({ tasks: [{ id: "write", title: "Write it", role: "writer" }] }) }
      if (isReviewCall(request)) return { content: JSON.stringify({ verdict: "pass", notes: "Fine." }) }
      // Always one more tool call, never a file: each pass would use its ten, and the checks would ask for repairs.
      call += 1
      return {
        toolCalls: [{ id: `look-${call}`, name: "files__read", arguments: { path: `nothing-${call}.md` } }]
      }
    })
    const started = await startBrief(owner.client, "Write a short note on green tea")
    const detail = await untilSettled(owner.client, started.id)
    // The run's first step (the plan's repair puts a research step before the writing) fails, and the next waits.
    const [first, next] = detail.tasks
    expect([first!.status, next!.status]).toEqual(["failed", "blocked"])
    expect(first!.error).toMatch(/No file was saved/)
    expect(callsFor(models, first!.title)).toHaveLength(10)
  })
})
