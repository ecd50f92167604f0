/**
 * A plugin's module in the browser: the owner installs the Notebook example, its rail item opens
 * /m/notebook.notes, and the page in its sandboxed frame jots and lists notes through the bridge.
 * From inside the frame, the app's cookies and storage are out of reach, the network is closed
 * and the parent window cannot be touched.
 */
import { cp, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Frame, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { logIn, type Person, rail, registerThroughApi } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

/** The module's frame once its document has loaded. */
const moduleFrame = async (page: Page): Promise<Frame> => {
  await page.locator("module-place iframe").waitFor()
  const handle = await page.locator("module-place iframe").elementHandle()
  const frame = await handle!.contentFrame()
  await frame!.waitForLoadState("load")
  return frame!
}

describe("a plugin's module in the browser", () => {
  let node: RunningNode
  let browser: Browser
  let pluginDir: string

  beforeAll(async () => {
    pluginDir = await mkdtemp(join(tmpdir(), "node-e2e-plugins-"))
    await cp(example, join(pluginDir, "notebook"), { recursive: true })
    ;[node, browser] = await Promise.all([startNode({ env: { PLUGIN_DIR: pluginDir } }), launchBrowser()])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    const cookie = registered.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ")
    const installed = await fetch(`${node.url}/api/plugins`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ dir: "notebook", granted: ["filesystem", "storage"] })
    })
    if (installed.status !== 200)
      throw new Error(`installing the notebook failed: ${installed.status} ${await installed.text()}`)
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(pluginDir, { recursive: true, force: true })
  })

  test("opens from the rail and round-trips bridge calls from its sandboxed frame", async () => {
    const page = await (await browser.newContext()).newPage()
    await logIn(page, node.url, owner)
    await rail(page).getByRole("link", { name: "Notebook" }).click()
    await page.getByRole("heading", { name: "Notebook", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/m/notebook.notes")

    const frame = await moduleFrame(page)
    await frame.getByText("No notes yet.").waitFor()
    await frame.getByLabel("Note", { exact: true }).fill("Buy oolong")
    await frame.getByLabel("Tag", { exact: true }).fill("errands")
    await frame.getByRole("button", { name: "Jot" }).click()
    await frame.getByRole("listitem").filter({ hasText: "Buy oolong" }).waitFor()
    expect(await frame.getByRole("status").textContent()).toBe("1 note.")

    // The filter is kept in the plugin's storage for this being: a fresh load shows it again.
    await frame.getByLabel("Show tag").fill("other")
    await frame.getByLabel("Show tag").press("Enter")
    await frame.getByLabel("Show tag").blur()
    await frame.getByText("No notes yet.").waitFor()
    await page.reload()
    const reloaded = await moduleFrame(page)
    await expect.poll(() => reloaded.getByLabel("Show tag").inputValue()).toBe("other")
  })

  test("cannot reach the app's cookies, storage, the network or its parent", async () => {
    const page = await (await browser.newContext()).newPage()
    await logIn(page, node.url, owner)
    await page.evaluate(() => localStorage.setItem("app-secret", "kept"))
    await page.goto(`${node.url}/m/notebook.notes`)
    const frame = await moduleFrame(page)
    await frame.getByRole("status").filter({ hasText: /note/ }).waitFor()

    const reach = await frame.evaluate(async () => {
      const attempt = async (work: () => unknown) => {
        try {
          return { ok: true, value: String(await work()) }
        } catch (error) {
          return { ok: false, value: error instanceof Error ? error.name : String(error) }
        }
      }
      return {
        origin: window.origin,
        cookie: await attempt(() => document.cookie),
        storage: await attempt(() => localStorage.getItem("app-secret")),
        fetch: await attempt(() => fetch("/api/auth/me").then((answer) => answer.status)),
        parent: await attempt(() => window.parent.document.title),
        bridge: typeof (window as unknown as { nodeBridge?: unknown }).nodeBridge
      }
    })
    expect(reach.origin).toBe("null")
    expect(reach.cookie.ok === false || reach.cookie.value === "").toBe(true)
    expect(reach.storage.ok).toBe(false)
    expect(reach.fetch.ok).toBe(false)
    expect(reach.parent.ok).toBe(false)
    expect(reach.bridge).toBe("object")
  })
})
