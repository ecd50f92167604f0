/**
 * Presence on one process over SQLite: a process killed with SIGKILL leaves its sockets' rows,
 * and the process started again over the same data reads its beings offline at once, without
 * waiting for the dead one's lease (alone on the database, every earlier process is gone).
 */
import { afterAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { until } from "../support/until.ts"
import { LiveTab } from "../support/live.ts"
import { Client, person, run } from "../support/node.ts"
import { asNode } from "../support/processes.ts"

const started: Array<ChildNode> = []
afterAll(async () => {
  for (const node of started.reverse()) await node.close()
})

const onlineOn = async (node: ChildNode) => (await run(new Client(node.url).api.health.health())).live.beingsOnline

describe("presence across a restart on SQLite", () => {
  it("counts only the new process's sockets once the node is up again: the killed one's rows are gone", async () => {
    const first = await startChildNode({ env: { LLM_LOCAL: "false" } })
    started.push(first)
    const owner = new Client(first.url)
    await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
    const tab = await LiveTab.open(asNode(first), owner)
    expect(await onlineOn(first)).toBe(1)

    expect(await first.kill("SIGKILL")).toBe("SIGKILL")
    expect((await tab.closed).code).toBe(1006)
    const again = await startChildNode({
      dataDir: first.dataDir,
      port: first.port,
      ownerCode: first.ownerCode,
      env: { LLM_LOCAL: "false" }
    })
    started.push(again)
    // A tab on the new process (its handshake waits for the live channel, and so the presence sweep) is
    // the being's only socket: closing it leaves the being offline.
    const browser = new Client(again.url)
    browser.copyCookiesFrom(owner)
    const tabAgain = await LiveTab.open(asNode(again), browser)
    expect(await onlineOn(again)).toBe(1)
    await tabAgain.close()
    await until("no one online on the restarted process", async () => (await onlineOn(again)) === 0, 10_000)
  }, 60_000)
})
