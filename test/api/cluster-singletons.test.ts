/**
 * The node's timers run once per cluster, not once per process (COVERAGE "Scale-out"), seen from
 * outside with two runner processes on one PostgreSQL: the chat bridge polls each distinct bot
 * token with one long poll at a time (two beings connected with the node's token are one bot), the embedding backfill
 * makes one pass per interval, and a held reminder is
 * released once: one `signal.created` on a tab of each process, whichever process took it.
 * Short intervals come through the settings (docs/operations.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startBotApi, type BotApi } from "../support/bot-api.ts"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { LiveTab } from "../support/live.ts"
import { Client, person, run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { asNode, sameBrowserOn } from "../support/processes.ts"
import { until } from "../support/until.ts"

const nodeToken = "123456:cluster-node-bot"
const ownToken = "654321:cluster-own-bot"
const otherToken = "777777:cluster-other-bot"
/** When each embeddings request came (the backfill's calls, failing while the embed tier is down). */
const embedCalls: Array<number> = []

let bots: BotApi
let models: OpenAiServer
let postgres: TestPostgres
let first: ChildNode
let second: ChildNode
let owner: Client

beforeAll(async () => {
  bots = await startBotApi({
    [nodeToken]: "cluster_node_bot",
    [ownToken]: "cluster_own_bot",
    [otherToken]: "cluster_other_bot"
  })
  models = await startOpenAiServer({
    onRequest: (request) => void (request.route === "embeddings" && embedCalls.push(Date.now()))
  })
  // The embed tier is down: every memory waits for the backfill, whose every pass then fails at its first call.
  models.handle("embeddings", () => ({ error: { status: 500, message: "down" } }))
  postgres = await startPostgres()
  const DATABASE_URL = await postgres.createDatabase()
  const runner = async () => ({
    DATABASE_URL,
    CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`,
    ENCRYPTION_KEY: "a long passphrase for the cluster tests",
    CHAT_A_API_URL: bots.url,
    CHAT_A_BOT_TOKEN: nodeToken,
    CHAT_A_POLL_TIMEOUT_SECONDS: "1",
    LLM_BASE_URL: models.baseUrl,
    LLM_API_KEY: "sk-cluster",
    LLM_LOCAL: "false",
    MEMORY_BACKFILL_INTERVAL_MS: "1000"
  })
  // One after the other: the first runs the migrations.
  first = await startChildNode({ env: await runner() })
  second = await startChildNode({ env: await runner(), ownerCode: first.ownerCode })
  owner = new Client(first.url)
  await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
}, 120_000)
afterAll(async () => {
  await second?.close()
  await first?.close()
  await models?.close()
  await bots?.close()
  postgres?.stop()
})

const getUpdatesOf = (token: string) =>
  bots.calls.filter((call) => call.token === token && call.method === "getUpdates" && call.dropped !== true)

describe("timers on two runners", () => {
  it("poll each distinct bot token once across the cluster, however many beings and processes use it", async () => {
    // Two beings speak through the node's bot as their own, one connected through each process.
    const [minted] = await run(owner.api.auth.mintCodes({ payload: { count: 1, note: "member" } }))
    const member = new Client(second.url)
    await run(member.api.authPublic.register({ payload: person(minted!.code) }))
    await run(owner.api.connections.create({ payload: { provider: "chat_a", config: { token: nodeToken } } }))
    await run(member.api.connections.create({ payload: { provider: "chat_a", config: { token: nodeToken } } }))
    await until("the bot's first poll", () => getUpdatesOf(nodeToken).length > 0, 30_000)
    bots.openPolls.reset(nodeToken)
    // Several one-second periods with both processes up: one long poll at a time, one after another.
    const polled = getUpdatesOf(nodeToken).length
    await until("four more polls", () => getUpdatesOf(nodeToken).length >= polled + 4, 60_000)
    expect(bots.openPolls.peak(nodeToken)).toBe(1)
  }, 120_000)

  // The owner's bot changed through each process in turn: the pollers run on one of them, and the
  // other hears of the new token through `connection.secret-changed` (docs/decisions.md, "Events
  // across processes"), so one of the two changes crosses processes whichever holds the pollers.
  it("poll a being's own bot as soon as it is changed through either process", async () => {
    const [mine] = (await run(owner.api.connections.list())).filter((connection) => connection.provider === "chat_a")
    const path = { id: mine!.id }
    await run(sameBrowserOn(second, owner).api.connections.update({ path, payload: { config: { token: ownToken } } }))
    await until("the own bot's first poll", () => getUpdatesOf(ownToken).length > 0, 30_000)
    await run(owner.api.connections.update({ path, payload: { config: { token: otherToken } } }))
    await until("the other bot's first poll", () => getUpdatesOf(otherToken).length > 0, 30_000)
  }, 90_000)

  it("run the embedding backfill once per interval across the cluster", async () => {
    // Stored while the embed tier is down (through each process): pending for the backfill.
    await run(owner.api.twin.createMemory({ payload: { content: "Pending through the first process." } }))
    await run(
      sameBrowserOn(second, owner).api.twin.createMemory({
        payload: { content: "Pending through the second process." }
      })
    )
    // Past the writes' own attempts to embed: from here on only the backfill calls.
    const written = embedCalls.length
    await until("the backfill's first passes", () => embedCalls.length >= written + 2, 60_000)
    const from = embedCalls.length
    await until("six backfill passes", () => embedCalls.length >= from + 6, 60_000)
    // One loop sleeps its interval between passes; a second loop's passes would fall in between.
    const times = embedCalls.slice(from)
    const gaps = times.slice(1).map((at, index) => at - times[index]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900)
  }, 120_000)

  it("release a held reminder once, whichever process it was set through", async () => {
    const tabs = [
      await LiveTab.open(asNode(first), owner),
      await LiveTab.open(asNode(second), sameBrowserOn(second, owner))
    ]
    const soon = () => new Date(Date.now() + 2_000).toISOString()
    const held = [
      await run(
        owner.api.twinTime.createEvent({ payload: { title: "Held on the first", startAt: soon(), remind: true } })
      ),
      await run(
        sameBrowserOn(second, owner).api.twinTime.createEvent({
          payload: { title: "Held on the second", startAt: soon(), remind: true }
        })
      )
    ]
    // The scheduler of the cluster sleeps at most a minute before it reads jobs set through another process.
    for (const tab of tabs) {
      for (const event of held)
        await tab.nextOf("signal.created", (frame) => frame.signal.id === event.signalId, 90_000)
    }
    // A reminder already due, delivered at once by the process that took it: any second release of the held ones came
    // before it.
    const marker = await run(
      owner.api.twinTime.createEvent({ payload: { title: "Marker", startAt: "2020-01-01T09:00:00Z", remind: true } })
    )
    for (const tab of tabs) await tab.nextOf("signal.created", (frame) => frame.signal.id === marker.signalId, 10_000)
    const again = (tab: LiveTab) =>
      tab.frames.filter(
        (frame) => frame.type === "signal.created" && held.some((event) => event.signalId === frame.signal.id)
      )
    expect(tabs.map((tab) => again(tab).length)).toEqual([0, 0])
    const open = await run(owner.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    expect(open.filter((signal) => signal.title.startsWith("Held on")).length).toBe(2)
    for (const tab of tabs) await tab.close()
  }, 180_000)
})
