/**
 * The owner's plugins in Settings: the plugin folder's plugins with each capability, what it lets
 * a plugin do, the node's risk statement and a world-acting reason word for word; an install that
 * leaves a capability unticked is refused in the node's words; the Notebook example installs with
 * every box ticked, shows as installed with what it contributes (its module in the rail at once),
 * and uninstalls after a confirmation. A member has no plugins section.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { pluginRiskStatement } from "../../kernel/contract/capabilities.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, ownerAndMember, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const member: Person = {
  displayName: "Milo Member",
  handle: "milo",
  email: "milo@example.org",
  password: "milo-password-1"
}
const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

/** A plugin that only declares: enough to be listed, never installed here. */
const courierReason = "Posts the day's summary to your team channel at 18:00 — only after you approve each post."
const courier = {
  apiVersion: "1.0",
  id: "@example/courier",
  version: "0.1.0",
  namespace: "courier",
  name: "Courier",
  capabilities: [{ kind: "world-acting", reason: courierReason }]
}

describe("the owner's plugins in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let pluginDir: string
  let ownerCookie: string
  let memberCookie: string

  beforeAll(async () => {
    pluginDir = await mkdtemp(join(tmpdir(), "node-e2e-plugins-"))
    await cp(example, join(pluginDir, "notebook"), { recursive: true })
    await mkdir(join(pluginDir, "courier"))
    await writeFile(join(pluginDir, "courier", "plugin.json"), JSON.stringify(courier))
    ;[node, browser] = await Promise.all([startNode({ env: { PLUGIN_DIR: pluginDir } }), launchBrowser()])
    ;({ ownerCookie, memberCookie } = await ownerAndMember(node.url, node.ownerCode, owner, member))
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(pluginDir, { recursive: true, force: true })
  })

  const open = async (cookie: string, path: string) => {
    const context = await browser.newContext()
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}${path}`)
    return { page, problems }
  }

  test("shows capabilities and reasons, refuses a partial grant, installs the Notebook and uninstalls it", async () => {
    const { page, problems } = await open(ownerCookie, "/settings")
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Plugins" }).click()
    expect(new URL(page.url()).search).toBe("?section=plugins")
    const available = page.getByRole("list", { name: "Available plugins" })
    const notebook = available.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Notebook/ }) })
    await notebook.waitFor()
    await page.getByRole("note").filter({ hasText: pluginRiskStatement }).waitFor()

    // Each capability with the plugin's reason as it wrote it; world-acting marked as such.
    await notebook.getByText("keeps each person's notes in its own data folder", { exact: true }).waitFor()
    const courierEntry = available.getByRole("listitem").filter({ has: page.getByRole("heading", { name: /Courier/ }) })
    expect(await courierEntry.getByText(courierReason, { exact: true }).count()).toBe(1)
    await courierEntry.getByText("Acts in the world").waitFor()

    // One box left unticked: the node refuses, and says which.
    await notebook.getByRole("checkbox", { name: /filesystem/ }).check()
    await notebook.getByRole("button", { name: "Install Notebook" }).click()
    await page
      .getByRole("alert")
      .filter({ hasText: "@example/notebook needs capabilities that were not granted: storage." })
      .waitFor()
    expect(await rail(page).getByRole("link", { name: "Notebook" }).count()).toBe(0)

    await notebook.getByRole("checkbox", { name: /storage/ }).check()
    await notebook.getByRole("button", { name: "Install Notebook" }).click()
    await page.getByText("Notebook is installed.").waitFor()
    const installed = page
      .getByRole("list", { name: "Installed plugins" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: /Notebook/ }) })
    await installed.getByText("Active").waitFor()
    await installed.getByText("notebook.notes").waitFor()
    await installed.getByText("Granted: filesystem, storage").waitFor()
    await rail(page).getByRole("link", { name: "Notebook" }).waitFor()
    await available.getByRole("heading", { name: /Notebook/ }).waitFor({ state: "detached" })

    // Uninstalling asks first; Cancel changes nothing.
    await installed.getByRole("button", { name: "Uninstall Notebook" }).click()
    const dialog = page.getByRole("dialog", { name: "Uninstall Notebook?" })
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "hidden" })
    expect(await installed.count()).toBe(1)
    await installed.getByRole("button", { name: "Uninstall Notebook" }).click()
    await dialog.getByRole("button", { name: "Uninstall" }).click()
    await page.getByText("Notebook is uninstalled and its folder removed.").waitFor()
    await installed.waitFor({ state: "detached" })
    await rail(page).getByRole("link", { name: "Notebook" }).waitFor({ state: "detached" })
    const listed = (await (await page.request.get(`${node.url}/api/plugins`)).json()) as Array<{ id: string }>
    expect(listed.map((plugin) => plugin.id)).not.toContain("@example/notebook")
    expect(problems).toEqual([])
  })

  test("a member has no plugins section", async () => {
    const { page } = await open(memberCookie, "/settings?section=plugins")
    await page.getByText("Owner only: plugins are installed by the owner of this node.").waitFor()
    expect(
      await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Plugins" }).count()
    ).toBe(0)
  })
})
