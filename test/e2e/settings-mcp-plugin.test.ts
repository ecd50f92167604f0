/**
 * An MCP server plugin in Settings → Plugins: the Almanac example (examples/plugins/almanac), installed with its
 * world-acting grant, shows its server's tools as the skills it contributes, each with its full name, and marks the
 * one that is not read-only as asking the owner's approval.
 */
import { cp, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { call, cookieOf, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { ownerPerson } from "./people.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "almanac")

describe("an MCP server plugin in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let pluginDir: string
  let cookie: string

  beforeAll(async () => {
    pluginDir = await mkdtemp(join(tmpdir(), "node-e2e-mcp-plugin-"))
    await cp(example, join(pluginDir, "almanac"), { recursive: true })
    ;[node, browser] = await Promise.all([startNode({ env: { PLUGIN_DIR: pluginDir } }), launchBrowser()])
    cookie = cookieOf(await registerThroughApi(node.url, ownerPerson, node.ownerCode))
    await call(node.url, cookie, "POST", "/api/plugins", { dir: "almanac", granted: ["world-acting"] })
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(pluginDir, { recursive: true, force: true })
  })

  test("lists the server's tools as the plugin's skills", async () => {
    const context = await browser.newContext()
    await context.addCookies([{ name: "svc_session", value: cookie.slice("svc_session=".length), url: node.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/settings?section=plugins`)
    const entry = page
      .getByRole("list", { name: "Installed plugins" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: /Almanac/ }) })
    await entry.getByText("Active").waitFor()
    // Only the tool that is not read-only (pin_note) asks the owner's approval at each call.
    for (const [title, name, asks] of [
      ["Count words", "almanac.word_count", false],
      ["Pin a note", "almanac.pin_note", true],
      ["Read the board", "almanac.board", false]
    ] as const) {
      const tool = entry.getByRole("listitem").filter({ hasText: name })
      await tool.waitFor()
      expect(await tool.textContent()).toContain(title)
      expect(await tool.getByText("Asks your approval").count(), name).toBe(asks ? 1 : 0)
    }
    expect(problems).toEqual([])
    await context.close()
  })
})
