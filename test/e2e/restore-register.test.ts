/**
 * Restore from the register page in the browser (issue 29): a node nobody owns offers "Restore from a backup"; a
 * wrong passphrase is told in the web app's words and changes nothing; the right one restores a backup made by
 * another node, the node comes back by itself, and its owner signs in and finds their memory.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { owner, rail, registerThroughApi, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { tempDir } from "../support/temp-dir.ts"

const PASSPHRASE = "correct horse battery staple"
const MEMORY = "The spare key is under the blue pot"

describe("restore from the register page", () => {
  let source: RunningNode
  let fresh: RunningNode
  let browser: Browser
  // The fresh node's data folder inside one of the test's own: the restore moves it aside beside itself.
  let folder: string

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "restore-e2e-"))
    ;[source, fresh, browser] = await Promise.all([
      startNode(),
      startNode({ env: { DATA_DIR: join(folder, "data") } }),
      launchBrowser()
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await Promise.all([source?.stop(), fresh?.stop()])
    await rm(folder, { recursive: true, force: true })
  })

  test("a fresh node restores another node's backup and serves it; its owner signs in and finds their memory", async () => {
    // The backup, made and downloaded through the other node's own routes.
    const registered = await registerThroughApi(source.url, owner, source.ownerCode)
    const cookie = registered.headers
      .getSetCookie()
      .find((line) => line.startsWith("svc_session="))!
      .split(";")[0]!
    const asOwner = { cookie, origin: source.url, "content-type": "application/json" }
    const memory = await fetch(`${source.url}/api/twin/memories`, {
      method: "POST",
      headers: asOwner,
      body: JSON.stringify({ content: MEMORY })
    })
    expect(memory.status).toBe(200)
    const made = await fetch(`${source.url}/api/backups`, {
      method: "POST",
      headers: asOwner,
      body: JSON.stringify({ passphrase: PASSPHRASE })
    })
    expect(made.status).toBe(201)
    const { id } = (await made.json()) as { id: string }
    const download = await fetch(`${source.url}/api/backups/${id}/download`, { headers: { cookie } })
    const file = join(tempDir("restore-e2e"), `${id}.tar.gz.age`)
    await writeFile(file, Buffer.from(await download.arrayBuffer()))

    const page = await (await browser.newContext()).newPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${fresh.url}/register`)
    const restore = page.locator("restore-backup")
    await restore.getByRole("heading", { name: "Restore from a backup" }).waitFor()
    await restore.getByLabel("Backup file").setInputFiles(file)
    await restore.getByLabel("Passphrase").fill("not the passphrase at all")
    await restore.getByRole("button", { name: "Restore" }).click()
    await restore.getByText("That passphrase does not open this backup.", { exact: false }).waitFor({ timeout: 30_000 })

    await restore.getByLabel("Passphrase").fill(PASSPHRASE)
    await restore.getByRole("button", { name: "Restore" }).click()
    await restore.getByText(`Restored: sign in as ${owner.handle}.`).waitFor({ timeout: 90_000 })
    // The register form is gone: the node has its owner now.
    expect(await page.getByRole("heading", { name: "Register" }).count()).toBe(0)

    const signIn = restore.locator("login-place")
    await signIn.getByLabel("Email").fill(owner.email)
    await signIn.getByLabel("Password", { exact: true }).fill(owner.password)
    await signIn.getByRole("button", { name: "Log in" }).click()
    await waitForDesktop(page, owner)
    await rail(page).getByRole("link", { name: "Twin" }).click()
    await expect
      .poll(() => page.locator("twin-memories li.memory").allTextContents(), { timeout: 20_000 })
      .toEqual([expect.stringContaining(MEMORY)])
    expect(breakage).toEqual([])
  })
})
