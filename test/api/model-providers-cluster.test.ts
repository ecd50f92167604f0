/**
 * Models in the owner's hands on a node of two processes over one PostgreSQL: a provider added and
 * a tier bound through one process serve the other's next call, its key opened there, with no
 * restart; a rebinding through the other is seen back on the first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { Client, person, run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { sameBrowserOn } from "../support/processes.ts"
import { until } from "../support/until.ts"

const secret = "sk-cluster-provider-51c2"
let postgres: TestPostgres
let models: OpenAiServer
let first: ChildNode
let second: ChildNode
let owner: Client

beforeAll(async () => {
  models = await startOpenAiServer()
  postgres = await startPostgres()
  const DATABASE_URL = await postgres.createDatabase()
  const runnerAt = async () => ({
    DATABASE_URL,
    CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`,
    ENCRYPTION_KEY: "a long passphrase the runners share"
  })
  // One after the other: the first runs the migrations.
  first = await startChildNode({ env: await runnerAt() })
  second = await startChildNode({ env: await runnerAt(), ownerCode: first.ownerCode })
  owner = new Client(first.url)
  await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
}, 120_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  await models?.close()
  postgres?.stop()
})

const standardOn = async (client: Client) =>
  (await run(client.api.llm.inference())).tiers.find((tier) => tier.tier === "standard")!

describe("a binding made through one process", () => {
  it("serves the other's next call, with the key opened there, and back", async () => {
    const onSecond = sameBrowserOn(second, owner)
    const provider = await run(
      owner.api.llm.addProvider({ payload: { name: "Shared", baseUrl: models.baseUrl, apiKey: secret } })
    )
    await run(
      owner.api.llm.bindTier({ path: { tier: "standard" }, payload: { providerId: provider.id, model: "m-1" } })
    )
    await until("the second process to see the binding", async () => (await standardOn(onSecond)).model === "m-1")
    const answer = await run(
      onSecond.api.studioSkills.invokeSkill({ payload: { name: "llm.generate", input: { prompt: "Hi" } } })
    )
    expect(answer).toMatchObject({ ok: true })
    const call = models.requestsFor("chat").at(-1)!
    expect(call.model).toBe("m-1")
    expect(call.headers.authorization).toBe(`Bearer ${secret}`)

    await run(
      onSecond.api.llm.bindTier({ path: { tier: "standard" }, payload: { providerId: provider.id, model: "m-2" } })
    )
    await until("the first process to see the rebinding", async () => (await standardOn(owner)).model === "m-2")
  })
})
