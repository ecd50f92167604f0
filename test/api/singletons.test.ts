/**
 * The node's timers are cluster singletons (docs/decisions.md "Timers in a cluster"): on a real
 * node each loop's name is held by the cluster's Sharding, so on several runners exactly one runs
 * it; a chat_a poller is named by its token's fingerprint, never the token.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fingerprint } from "../../extensions/twin/chat-bridge/tokens.ts"
import { startBotApi, type BotApi } from "../support/bot-api.ts"
import { noModelSettings } from "../support/models.ts"
import { startNode, type TestNode } from "../support/node.ts"
import { registered } from "../support/singletons.ts"

const token = "123456:node-bot-token"
let bots: BotApi
let node: TestNode

beforeAll(async () => {
  bots = await startBotApi({ [token]: "node_bot" })
  node = await startNode({
    ...noModelSettings,
    chatAApiUrl: bots.url,
    chatABotToken: Option.some(Redacted.make(token))
  })
})

afterAll(async () => {
  await node.close()
  await bots.close()
})

describe("the node's timers", () => {
  it("each run once across the cluster: their names are held by its Sharding", async () => {
    // The poller's first long poll: its singleton is registered and running.
    await bots.next((call) => call.token === token && call.method === "getUpdates")
    const names = [
      "time.scheduler",
      "federation.courier",
      "federation.collector",
      "federation.relay",
      "federation.directory",
      "twin.reflection",
      "twin.backfill",
      "twin.syncCadence",
      "twin.learning",
      `chatBridge.poller.${fingerprint(Redacted.make(token))}`
    ]
    const held = await node.runtime.runPromise(
      Effect.forEach(names, (name) => Effect.map(registered(name), (is) => [name, is] as const))
    )
    expect(Object.fromEntries(held)).toEqual(Object.fromEntries(names.map((name) => [name, true])))
    expect(names.some((name) => name.includes(token))).toBe(false)
  })
})
