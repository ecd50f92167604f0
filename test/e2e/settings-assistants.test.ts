/**
 * Settings → Assistants (MCP) in Chromium: a person mints a client with two grants, copies its token with the copy
 * button (the clipboard then holds it, and an assistant connects with it over MCP and sees the granted tools), says
 * they have it (the token leaves the page), and revokes the client: the same token is then refused.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { connectMcp } from "../support/mcp.ts"
import { launchBrowser } from "./browser.ts"
import { isCall, logIn, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { ownerPerson } from "./people.ts"

describe("assistants in Settings", () => {
  let node: RunningNode
  let browser: Browser

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    await registerThroughApi(node.url, ownerPerson, node.ownerCode)
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
  })

  test("mints a client, copies its token, and revokes it", async () => {
    const context = await browser.newContext()
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: node.url })
    const page = await context.newPage()
    const breakage = watchForBreakage(page)
    await logIn(page, node.url, ownerPerson)
    await page.goto(`${node.url}/settings?section=assistants`)
    const section = page.locator("settings-assistants")
    await section.getByRole("heading", { name: "Assistants (MCP)" }).waitFor()

    const form = section.getByRole("form", { name: "New assistant" })
    await form.getByLabel("Name").fill("Desktop assistant")
    await form.getByLabel(/Search memories/).check()
    await form.getByLabel(/Add and complete to-dos/).check()
    const minted = page.waitForResponse(isCall("POST", "/api/mcp/clients"))
    await form.getByRole("button", { name: "Create token" }).click()
    expect((await minted).status()).toBe(200)

    const shown = section.getByRole("region", { name: "New token" })
    await shown.getByText("it is not shown again").waitFor()
    await shown.getByRole("button", { name: "Copy the token" }).click()
    await shown.getByText("Copied.").first().waitFor()
    const token = await page.evaluate(() => navigator.clipboard.readText())
    expect(token).toMatch(/^pmcp_/)
    await shown.getByRole("button", { name: "Copy the configuration" }).click()
    const config = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))
    expect(config.mcpServers["personal-node"].headers.Authorization).toBe(`Bearer ${token}`)

    const assistant = await connectMcp(node.url, token)
    expect((await assistant.listTools()).tools.map((tool) => tool.name).sort()).toEqual([
      "memory_search",
      "todo_add",
      "todo_complete"
    ])
    await assistant.close()

    await shown.getByRole("button", { name: "I have copied it" }).click()
    await shown.waitFor({ state: "detached" })
    expect(await section.textContent()).not.toContain(token)
    const row = section.getByRole("row").filter({ hasText: "Desktop assistant" })
    await row.getByText("todos.write").waitFor()

    const revoked = page.waitForResponse(
      (response) =>
        response.request().method() === "DELETE" && new URL(response.url()).pathname.startsWith("/api/mcp/clients/")
    )
    await row.getByRole("button", { name: "Revoke Desktop assistant" }).click()
    expect((await revoked).status()).toBe(200)
    await section.getByText("Desktop assistant is revoked").waitFor()
    await section.getByText("No assistant has a token yet.").waitFor()
    await expect(connectMcp(node.url, token)).rejects.toThrow()
    expect(breakage).toEqual([])
    await context.close()
  })
})
