/**
 * Two node processes on one PostgreSQL, as the processes of a cluster: what one process keeps in
 * memory of another's writes, and the timers one of them runs for both, follow what a request on
 * either did (docs/decisions.md, "State in a cluster" and "Events across processes").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startSlack } from "../support/chat-servers.ts"
import { LiveTab } from "../support/live.ts"
import { attempt, run, type Client } from "../support/node.ts"
import { skillMain, writePluginFolder } from "../support/plugin-folder.ts"
import { asNode, sameBrowserOn, startTwoProcesses, type TwoProcesses } from "../support/processes.ts"
import { until } from "../support/until.ts"

let cluster: TwoProcesses
let slack: Awaited<ReturnType<typeof startSlack>>
/** The only token the Slack server takes: the being's own, once it is edited in. */
const goodToken = "xoxb-2-the-good-token"
/** One plugin folder for both processes, as docs/operations.md asks of a cluster. */
const pluginDir = mkdtempSync(join(tmpdir(), "shared-plugins-"))

beforeAll(async () => {
  slack = await startSlack(goodToken)
  // No CHAT_B_TOKEN: chat_b.send works only with a being's own connection.
  cluster = await startTwoProcesses({
    CHAT_B_API_URL: slack.url,
    ENCRYPTION_KEY: "a long passphrase the two processes share",
    PLUGIN_DIR: pluginDir
  })
}, 120_000)
afterAll(async () => {
  await cluster?.close()
  await slack?.close()
  rmSync(pluginDir, { recursive: true, force: true })
})

const sendOn = (client: Client) => () =>
  run(
    client.api.studioSkills.invokeSkill({
      payload: { name: "chat_b.send", input: { channel: "C0123456789", text: "Hello" } }
    })
  ) as Promise<unknown>
const saysNoToken = (answer: unknown) => JSON.stringify(answer).includes("CHAT_B_TOKEN")
/** The answer of `ask` once `check` holds of it. */
const answerOnce = <A>(what: string, ask: () => Promise<A>, check: (answer: A) => boolean) =>
  until(
    what,
    async () => {
      const answer = await ask()
      return check(answer) ? answer : undefined
    },
    15_000
  )

describe("connection secrets", () => {
  it("are used on the other process as connected, edited and disconnected on one", async () => {
    const onSecond = sendOn(sameBrowserOn(cluster.second, cluster.owner))
    expect(saysNoToken(await onSecond())).toBe(true)

    const connection = await run(
      cluster.owner.api.connections.create({
        payload: { provider: "chat_b", config: { token: "xoxb-1-a-stale-token" } }
      })
    )
    // The second process uses the being's connection now: the server refuses that token.
    expect(
      await answerOnce("the second process to use the connection", onSecond, (answer) => !saysNoToken(answer))
    ).toMatchObject({ ok: false, error: expect.stringContaining("invalid_auth") })

    await run(
      cluster.owner.api.connections.update({ path: { id: connection.id }, payload: { config: { token: goodToken } } })
    )
    const sent = await answerOnce("the second process to use the edited token", onSecond, (answer) =>
      JSON.stringify(answer).includes('"ok":true')
    )
    expect(sent).toMatchObject({ ok: true, output: { via: "connection" } })
    expect(slack.received.at(-1)?.headers.authorization).toBe(`Bearer ${goodToken}`)

    await run(cluster.owner.api.connections.remove({ path: { id: connection.id } }))
    expect(await answerOnce("the second process to forget the connection", onSecond, saysNoToken)).toMatchObject({
      ok: false,
      error: expect.stringContaining("CHAT_B_TOKEN")
    })
  }, 60_000)
})

describe("the timers' wake-ups", () => {
  it("release a reminder at its time whichever process scheduled it, wherever the scheduler runs", async () => {
    // The scheduler runs in one of the two processes: of two reminders, one per process, one is
    // scheduled away from it. Unwoken, that one would wait for the scheduler's next look (60 s).
    // One at a time: the scheduler woken for one would read the other too.
    const tab = await LiveTab.open(asNode(cluster.first), cluster.owner)
    const titles: Array<string> = []
    for (const [client, title] of [
      [cluster.owner, "Through the first"],
      [sameBrowserOn(cluster.second, cluster.owner), "Through the second"]
    ] as const) {
      const startAt = new Date(Date.now() + 3_000).toISOString()
      const event = await run(client.api.twinTime.createEvent({ payload: { title, startAt, remind: true } }))
      // Due in 3 s: 15 s leaves room for a busy machine, and none for a 60 s wait.
      const released = await tab.nextOf("signal.created", (frame) => frame.signal.id === event.signalId, 15_000)
      titles.push(released.signal.title)
    }
    expect(titles).toEqual(["Through the first", "Through the second"])
    await tab.close()
  }, 60_000)
})

describe("plugins", () => {
  it("installed through one process work through the other, and are gone from it once uninstalled", async () => {
    writePluginFolder(
      pluginDir,
      "echoer",
      { extensions: [{ kind: "skill", id: "echo", uses: [] }] },
      skillMain("echo", "return { heard: input.text }")
    )
    const onSecond = sameBrowserOn(cluster.second, cluster.owner)
    const echoOnSecond = () =>
      attempt(onSecond.api.studioSkills.invokeSkill({ payload: { name: "echoer.echo", input: { text: "hi" } } }))
    expect(await echoOnSecond()).toMatchObject({ ok: false, status: 404 })

    await run(cluster.owner.api.plugins.installPlugin({ payload: { dir: "echoer", granted: [] } }))
    expect(await answerOnce("the plugin on the second process", echoOnSecond, (outcome) => outcome.ok)).toMatchObject({
      ok: true,
      value: { ok: true, output: { heard: "hi" } }
    })
    expect((await run(onSecond.api.plugins.listPlugins())).some((plugin) => plugin.id === "@test/echoer")).toBe(true)

    await run(cluster.owner.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent("@test/echoer") } }))
    expect(
      await answerOnce("the plugin gone from the second process", echoOnSecond, (outcome) => !outcome.ok)
    ).toMatchObject({ ok: false, status: 404 })
    expect((await run(onSecond.api.plugins.listPlugins())).some((plugin) => plugin.id === "@test/echoer")).toBe(false)
  }, 60_000)
})
