/**
 * Issue 31's figure: an MCP `memory_search` round trip (a JSON-RPC `tools/call` over Streamable HTTP on an open
 * session, bearer token checked) beside the same search as `GET /api/twin/memories?q=` with a session cookie, against
 * one node as `npm start` runs it (a process of its own), over the same person's 500 memories, in interleaved rounds.
 * Both are plain fetches from this process, so the figure is the node's cost, not a client library's. Each request
 * comes from an address of its own (TRUST_PROXY=1): the `mcp` rate class allows 240 a minute per address.
 */
import { startChildNode } from "../support/child-node.ts"
import { Client, run } from "../support/client.ts"
import { mintMcp } from "../support/mcp.ts"
import { person } from "../support/person.ts"
import { meets, recordVerdict } from "./verdicts.ts"

const memories = 500
const rounds = 400
const warmUp = 50

const median = (samples: ReadonlyArray<number>) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!

export const benchMcp = async () => {
  const node = await startChildNode({ env: { RATE_LIMIT_PER_MINUTE: "100000000", TRUST_PROXY: "1" } })
  try {
    const owner = new Client(node.url)
    await run(owner.api.authPublic.register({ payload: person(node.ownerCode) }))
    for (let i = 0; i < memories; i++) {
      const topic = i % 10 === 0 ? "the plumber Ada fixed the kitchen tap" : `an ordinary day, number ${i}`
      await run(owner.api.twin.createMemory({ payload: { content: `${topic} (${i})` } }))
    }
    const { token } = await mintMcp(owner, ["memory.read"], "Bench assistant")
    let address = 0
    const from = () => {
      address += 1
      return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`
    }
    const mcpHeaders = {
      authorization: `Bearer ${token}`,
      accept: "application/json, text/event-stream",
      "content-type": "application/json"
    }
    const opened = await fetch(`${node.url}/api/mcp`, {
      method: "POST",
      headers: { ...mcpHeaders, "x-forwarded-for": from() },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } }
      })
    })
    const session = { "mcp-session-id": opened.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" }
    await opened.text()

    const overMcp = async (id: number) => {
      const answer = await fetch(`${node.url}/api/mcp`, {
        method: "POST",
        headers: { ...mcpHeaders, ...session, "x-forwarded-for": from() },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "memory_search", arguments: { query: "plumber", limit: 20 } }
        })
      })
      const body = (await answer.json()) as { result?: { structuredContent?: { memories: Array<unknown> } } }
      if (body.result?.structuredContent?.memories.length !== 20) throw new Error("the MCP search found too few")
    }
    const cookie = owner.cookieHeader()
    const overHttp = async () => {
      const answer = await fetch(`${node.url}/api/twin/memories?q=plumber&limit=20`, {
        headers: { cookie, "x-forwarded-for": from() }
      })
      if (((await answer.json()) as Array<unknown>).length !== 20) throw new Error("the HTTP search found too few")
    }

    const mcp: Array<number> = []
    const http: Array<number> = []
    for (let i = 0; i < warmUp + rounds; i++) {
      const t0 = performance.now()
      await overMcp(i + 1)
      const t1 = performance.now()
      await overHttp()
      const t2 = performance.now()
      if (i >= warmUp) {
        mcp.push(t1 - t0)
        http.push(t2 - t1)
      }
    }
    const [mcpMedian, httpMedian] = [median(mcp), median(http)]
    const ratio = mcpMedian / httpMedian
    console.log(
      `memory_search over MCP: median ${mcpMedian.toFixed(2)} ms; GET /api/twin/memories: median ${httpMedian.toFixed(2)} ms; ` +
        `${ratio.toFixed(2)}× (${rounds} rounds each, interleaved, ${memories} memories)`
    )
    recordVerdict({
      figure: "MCP memory_search round trip (median)",
      measured: `${mcpMedian.toFixed(2)} ms`,
      anchor: `GET /api/twin/memories ${httpMedian.toFixed(2)} ms`,
      aim: "at most 2× the HTTP route",
      met: meets(ratio, (value) => value <= 2)
    })
  } finally {
    await node.close()
  }
}
