/**
 * A bought citizen's agent at work: the buyer's run seats it for its role (a saved agent of theirs),
 * and the model server sees the citizen's persona as the task's system prompt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { personas } from "../../seeds/personas.ts"
import { remoteDefault } from "../support/models.ts"
import { registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { publish } from "./market-support.ts"
import { scriptStudio, taskTitleOf } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let buyer: Registered
const wren = personas.find((persona) => persona.role === "writer")!

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
  buyer = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

describe("a bought citizen's agent in a run", () => {
  it("works its task with the citizen's persona as its system prompt", async () => {
    const listing = await run(
      publish(owner.client, { kind: "agent", refId: "citizen-writer", title: "Wren writes for you", priceCredits: 5 })
    )
    const order = await run(buyer.client.api.market.buyListing({ path: { id: listing.id } }))
    models.reset()
    scriptStudio(models, {
      plan: { tasks: [{ id: "write", title: "Write the tasting notes", role: "writer", skills: ["files.write"] }] }
    })
    const started = await startBrief(buyer.client, "Notes for the tea tasting")
    const detail = await untilSettled(buyer.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(detail.team?.members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agentId: order.deliveredId, role: "writer", source: "saved", name: "Wren" })
      ])
    )
    const taskCalls = models.requestsFor("chat").filter((request) => taskTitleOf(request) === "Write the tasting notes")
    expect(taskCalls.length).toBeGreaterThan(0)
    for (const request of taskCalls) {
      const system = String(request.body.messages?.find((message) => message.role === "system")?.content)
      expect(system).toContain(`You are Wren, the writer of a small studio team. ${wren.description}`)
      expect(system).toContain(`Your voice: ${wren.voice}`)
    }
  })
})
