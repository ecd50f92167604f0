/**
 * Connections in Settings: every provider with its form drawn from its auth (a secret field typed
 * as a password, with its help), mail's link to its consent screen; the browser provider refuses a
 * file that is no History file in the node's words; a folder connects the local files provider,
 * shows as connected, and disconnects.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
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

describe("connections in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let filesRoot: string
  let cookie: string

  beforeAll(async () => {
    filesRoot = await mkdtemp(join(tmpdir(), "node-e2e-files-"))
    await mkdir(join(filesRoot, "notes"))
    await writeFile(join(filesRoot, "notes", "tea.txt"), "Sencha steeps for a minute.")
    ;[node, browser] = await Promise.all([startNode({ env: { FILES_ROOT: filesRoot } }), launchBrowser()])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    cookie = registered.headers
      .getSetCookie()
      .find((line) => line.startsWith("svc_session="))!
      .split(";")[0]!
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(filesRoot, { recursive: true, force: true })
  })

  test("forms from each provider's auth; a path refused in words, a folder connected and disconnected", async () => {
    const context = await browser.newContext()
    await context.addCookies([{ name: "svc_session", value: cookie.slice("svc_session=".length), url: node.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/settings`)
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Connections" }).click()
    const provider = (title: string) =>
      page
        .getByRole("list", { name: "Providers" })
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: title }) })

    // A secret field is a password input with its help; mail links to its consent screen.
    const token = provider("Chat A (Telegram)").getByLabel("Bot token")
    expect(await token.getAttribute("type")).toBe("password")
    expect(await token.getAttribute("placeholder")).toBe("123456:ABC-DEF...")
    await provider("Chat A (Telegram)").getByText("The token @BotFather gave your bot.").waitFor()
    expect(
      await provider("Mail").getByRole("link", { name: "Connect with your mail provider" }).getAttribute("href")
    ).toBe("/api/connections/mail_a/auth")

    // The browser's path: a text file is no History file, and the node says so.
    const browserForm = provider("Browser").getByRole("form", { name: "Connect Browser" })
    expect(await browserForm.getByLabel("History file").getAttribute("type")).toBe("text")
    await browserForm.getByLabel("History file").fill("notes/tea.txt")
    await browserForm.getByRole("button", { name: "Connect" }).click()
    await page
      .getByRole("alert")
      .filter({ hasText: /notes\/tea\.txt/ })
      .waitFor()
    expect(
      await provider("Browser")
        .getByRole("button", { name: /Disconnect/ })
        .count()
    ).toBe(0)

    // A folder inside FILES_ROOT connects the local files, labelled as asked.
    const filesForm = provider("Local files").getByRole("form", { name: "Connect Local files" })
    await filesForm.getByLabel("Folder").fill("notes")
    await filesForm.getByLabel("Label").fill("Tea notes")
    await filesForm.getByRole("button", { name: "Connect" }).click()
    await page.getByText("Local files: Tea notes is connected.").waitFor()
    const mine = provider("Local files").getByRole("list", { name: "Your Local files connections" })
    await mine.getByText("Tea notes").waitFor()
    await provider("Local files")
      .locator(".badge")
      .filter({ hasText: /^Connected$/ })
      .first()
      .waitFor()
    expect(await filesForm.getByLabel("Folder").inputValue()).toBe("")

    await mine.getByRole("button", { name: "Disconnect Tea notes" }).click()
    await page.getByText("Tea notes is disconnected.").waitFor()
    await mine.waitFor({ state: "detached" })
    const left = (await (await page.request.get(`${node.url}/api/connections`)).json()) as Array<{ provider: string }>
    expect(left.filter((connection) => connection.provider === "files")).toEqual([])
    expect(problems).toEqual([])
  })
})
