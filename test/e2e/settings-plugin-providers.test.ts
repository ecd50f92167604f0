/**
 * A plugin's providers in Settings → Connections, at desktop and phone width: the sample plugin's
 * `notebook.journal` connects with a bare button and syncs with "Sync now"; `notebook.inbox` (a
 * webhook) offers a secret made in the page to copy once, then shows the delivery address, and a
 * delivery signed with that secret is taken.
 */
import { createHmac } from "node:crypto"
import { cp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

describe("a plugin's providers in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let cookie: string
  let pluginDir: string

  beforeAll(async () => {
    pluginDir = join(tmpdir(), `node-e2e-plugins-${process.pid}-${Date.now()}`)
    await cp(example, join(pluginDir, "notebook"), { recursive: true })
    ;[node, browser] = await Promise.all([
      startNode({ env: { PLUGIN_DIR: pluginDir, ENCRYPTION_KEY: "a long passphrase for the browser tests" } }),
      launchBrowser()
    ])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    cookie = registered.headers
      .getSetCookie()
      .find((line) => line.startsWith("svc_session="))!
      .split(";")[0]!
    const installed = await fetch(`${node.url}/api/plugins`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: node.url },
      body: JSON.stringify({ dir: "notebook", granted: ["filesystem", "storage"] })
    })
    expect(installed.status).toBe(200)
  })

  /**
   * Each width starts with the owner connected to nothing. Reading the page for what is already
   * connected would race it: the providers and the owner's connections load apart, so a glance
   * before the second arrives sees none.
   */
  const disconnectAll = async (): Promise<void> => {
    const headers = { cookie, origin: node.url }
    const listed = await fetch(`${node.url}/api/connections`, { headers })
    expect(listed.status).toBe(200)
    for (const { id } of (await listed.json()) as ReadonlyArray<{ id: string }>) {
      const removed = await fetch(`${node.url}/api/connections/${id}`, { method: "DELETE", headers })
      expect(removed.ok).toBe(true)
    }
  }

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(pluginDir, { recursive: true, force: true })
  })

  for (const [width, height] of [
    [1280, 900],
    [390, 844]
  ] as const) {
    test(`syncs the journal and connects the inbox's webhook at ${width}px`, async () => {
      await disconnectAll()
      const context = await browser.newContext({ viewport: { width, height } })
      await context.addCookies([{ name: "svc_session", value: cookie.slice("svc_session=".length), url: node.url }])
      const page = await context.newPage()
      const problems = watchForBreakage(page)
      await page.goto(`${node.url}/settings`)
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Connections" })
        .click()
      const provider = (title: string) =>
        page
          .getByRole("list", { name: "Providers" })
          .getByRole("listitem")
          .filter({ has: page.getByRole("heading", { name: title }) })

      // The journal: connect, sync, and the status says it finished.
      const journal = provider("Notebook journal")
      await journal
        .getByRole("form", { name: "Connect Notebook journal" })
        .getByRole("button", { name: "Connect" })
        .click()
      await page.getByText("Notebook journal: Notebook journal is connected.").waitFor()
      await journal.getByRole("button", { name: "Sync Notebook journal" }).click()
      await page.getByText("Syncing Notebook journal…").waitFor()

      // The inbox: a secret made here, readable to copy, then the address deliveries go to.
      const inbox = provider("Notebook inbox")
      const mine = inbox.getByRole("list", { name: "Your Notebook inbox connections" })
      const form = inbox.getByRole("form", { name: "Connect Notebook inbox" })
      const secretField = form.getByLabel("Shared secret")
      expect(await secretField.getAttribute("type")).toBe("text")
      const secret = await secretField.inputValue()
      expect(secret).toMatch(/^[0-9a-f]{48}$/)
      await inbox.getByText("copy it into the sending service now").waitFor()
      await form.getByRole("button", { name: "Connect" }).click()
      await page.getByText("Notebook inbox: Notebook inbox is connected.").waitFor()
      const address = await mine.locator("code").textContent()
      expect(address).toMatch(new RegExp(`^${node.url}/api/twin/webhooks/notebook\\.inbox/[0-9a-f-]{36}$`))
      expect(await secretField.inputValue()).not.toBe(secret)

      const body = JSON.stringify({ notes: [{ id: `w${width}`, text: "Sent from the sending service" }] })
      const delivered = await fetch(address!, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-signature": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`
        },
        body
      })
      expect(await delivered.json()).toEqual({ received: 1, remembered: 1 })
      expect(problems).toEqual([])
      await context.close()
    })
  }
})
