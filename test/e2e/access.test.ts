/**
 * Who may come in and who may administer: a fresh node's owner registers with the code the node
 * printed, mints a code in Admin, and a second person registers with it, sees no Admin in the
 * rail and is refused at /admin in the node's words. A spent code is refused in words too, and
 * the waitlist a visitor joins reaches the owner's Admin and its CSV.
 */
import { readFile } from "node:fs/promises"
import type { Browser, Page, Response } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { focused, type Person, rail, submitRegistration, waitForDesktop } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const guest: Person = { displayName: "Bea Guest", handle: "bea", email: "bea@example.org", password: "bea-password-12" }

const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path

describe("access codes and the owner's admin place", () => {
  let node: RunningNode
  let browser: Browser
  let mintedCode = ""

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
  })

  test("the owner registers with the printed code and mints a code in Admin", async () => {
    const page = await browser.newPage()
    await page.goto(`${node.url}/register?code=${encodeURIComponent(node.ownerCode)}`)
    const codeField = page.getByLabel("Access code")
    await expect.poll(() => codeField.inputValue()).toBe(node.ownerCode)

    await submitRegistration(page, owner)
    await waitForDesktop(page, owner)
    expect(new URL(page.url()).pathname).toBe("/")

    await rail(page).getByRole("link", { name: "Admin" }).click()
    await page.getByRole("heading", { name: "Access codes" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/admin")
    await page.getByLabel("How many").fill("1")
    await page.getByLabel("Note (who they are for)").fill("for Bea")
    const minting = page.waitForResponse(isCall("POST", "/api/auth/codes"))
    await page.getByRole("button", { name: "Mint codes" }).click()
    expect((await minting).status()).toBe(200)

    const newCode = page.locator(".new-codes code")
    await newCode.waitFor()
    mintedCode = (await newCode.textContent())?.trim() ?? ""
    expect(mintedCode).not.toBe("")
    const row = page.locator(`tr[data-code="${mintedCode}"]`)
    await row.filter({ hasText: "for Bea" }).locator(".state", { hasText: "Unused" }).waitFor()
    await page.close()
  })

  test("the person who joins with that code has no Admin and is refused at /admin in words", async () => {
    expect(mintedCode).not.toBe("")
    const page = await browser.newPage()
    await page.goto(`${node.url}/register?code=${encodeURIComponent(mintedCode)}`)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(mintedCode)
    await submitRegistration(page, guest)
    await waitForDesktop(page, guest)

    const places = rail(page)
    await places.getByRole("link", { name: "Settings" }).waitFor()
    expect(await places.getByRole("link", { name: "Desktop" }).count()).toBe(1)
    expect(await places.getByRole("link", { name: "Admin" }).count()).toBe(0)

    const probe = page.waitForResponse(isCall("GET", "/api/auth/codes"))
    await page.goto(`${node.url}/admin`)
    const refusal = await probe
    expect(refusal.status()).toBe(403)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.error).toBe("forbidden")
    await page.getByRole("alert").filter({ hasText: body.message }).waitFor()
    expect(await page.getByRole("heading", { name: "Access codes" }).count()).toBe(0)
    expect(await page.getByRole("button", { name: "Mint codes" }).count()).toBe(0)
    await page.close()
  })

  test("the owner sees the code used and the new account listed", async () => {
    const page = await loggedInOwnerPage()
    await page.goto(`${node.url}/admin`)
    await page.locator(`tr[data-code="${mintedCode}"] .state`, { hasText: "Used" }).waitFor()
    await page.locator(`tr[data-handle="${guest.handle}"] .state`, { hasText: "Active" }).waitFor()
    await page.close()
  })

  test("deleting a code and suspending an account ask first; Cancel and Escape change nothing", async () => {
    const page = await loggedInOwnerPage()
    const changes: Array<string> = []
    page.on("request", (request) => {
      if (request.method() !== "GET" && new URL(request.url()).pathname.startsWith("/api/auth/"))
        changes.push(new URL(request.url()).pathname)
    })
    await page.goto(`${node.url}/admin`)
    await page.getByLabel("Note (who they are for)").fill("for nobody")
    const minting = page.waitForResponse(isCall("POST", "/api/auth/codes"))
    await page.getByRole("button", { name: "Mint codes" }).click()
    const [spare] = (await (await minting).json()) as Array<{ code: string }>
    const row = page.locator(`tr[data-code="${spare.code}"]`)
    await row.waitFor()
    changes.length = 0

    // The question is a modal dialog named by it; the keyboard starts on Cancel.
    const remove = page.getByRole("button", { name: `Delete code ${spare.code}` })
    await remove.click()
    const dialog = page.getByRole("dialog", { name: `Delete code ${spare.code}?` })
    await dialog.waitFor()
    expect(await focused(page)).toEqual({ tag: "button", text: "Cancel" })
    await page.keyboard.press("Enter")
    await dialog.waitFor({ state: "hidden" })
    await remove.click()
    await dialog.waitFor()
    await page.keyboard.press("Escape")
    await dialog.waitFor({ state: "hidden" })
    // Back on the button that asked.
    expect(await focused(page)).toMatchObject({ tag: "button", text: "Delete" })
    expect(changes).toEqual([])
    expect(await row.count()).toBe(1)

    await remove.click()
    const deleting = page.waitForResponse(isCall("DELETE", `/api/auth/codes/${spare.code}`))
    await dialog.getByRole("button", { name: "Delete the code" }).focus()
    await page.keyboard.press("Enter")
    expect((await deleting).status()).toBe(200)
    await row.waitFor({ state: "detached" })

    const guestRow = page.locator(`tr[data-handle="${guest.handle}"]`)
    const suspend = guestRow.getByRole("button", { name: /^Suspend / })
    await suspend.click()
    const question = page.getByRole("dialog", { name: /^Suspend Bea Guest/ })
    await question.getByText("signed out everywhere").waitFor()
    await question.getByRole("button", { name: "Cancel" }).click()
    await question.waitFor({ state: "hidden" })
    expect(await guestRow.locator(".state").textContent()).toBe("Active")
    expect(changes).toEqual([`/api/auth/codes/${spare.code}`])

    await suspend.click()
    const suspending = page.waitForResponse(
      (response) => response.request().method() === "POST" && response.url().endsWith("/suspend")
    )
    await question.getByRole("button", { name: "Suspend the account" }).click()
    expect((await suspending).status()).toBe(200)
    await guestRow.locator(".state", { hasText: "Suspended" }).waitFor()
    await page.close()
  })

  test("registering with a spent code shows the node's refusal in words", async () => {
    const page = await browser.newPage()
    await page.goto(`${node.url}/register?code=${encodeURIComponent(mintedCode)}`)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(mintedCode)
    const registering = page.waitForResponse(isCall("POST", "/api/auth/register"))
    await submitRegistration(page, {
      displayName: "Cyrus Late",
      handle: "cyrus",
      email: "cyrus@example.org",
      password: "cyrus-password-1"
    })
    const refusal = await registering
    expect(refusal.status()).toBeGreaterThanOrEqual(400)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.message).not.toBe("")
    await page.getByRole("alert").filter({ hasText: body.message }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/register")
    expect(await rail(page).getByRole("link", { name: "Log in" }).count()).toBe(1)
    await page.close()
  })

  test("a visitor joins the waitlist; the owner reads it in Admin and downloads it as CSV", async () => {
    const visitor = await browser.newPage()
    await visitor.goto(`${node.url}/waitlist`)
    await visitor.getByLabel("Email").fill("dana@example.org")
    await visitor.getByLabel("Name").fill("Dana Waiting")
    await visitor.getByLabel("Why you would like to join").fill("I write, and I want a node, too.")
    await visitor.getByRole("button", { name: "Join the waitlist" }).click()
    await visitor.getByRole("status").filter({ hasText: "You are on the waitlist." }).waitFor()
    await visitor.close()

    const page = await loggedInOwnerPage()
    await page.goto(`${node.url}/admin`)
    await page
      .locator("admin-waitlist tr", { hasText: "dana@example.org" })
      .filter({ hasText: "Dana Waiting" })
      .waitFor()
    const downloading = page.waitForEvent("download")
    await page.getByRole("link", { name: "Download CSV" }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe("waitlist.csv")
    const csv = await readFile(await download.path(), "utf8")
    expect(csv.split(/\r?\n/)[0]).toBe("email,name,why,createdAt")
    expect(csv).toContain("dana@example.org,Dana Waiting")
    await page.close()
  })

  /** The owner's browser from the first test is closed; a fresh one logs in. */
  const loggedInOwnerPage = async (): Promise<Page> => {
    const page = await browser.newPage()
    await page.goto(`${node.url}/login`)
    await page.getByLabel("Email").fill(owner.email)
    await page.getByLabel("Password", { exact: true }).fill(owner.password)
    await page.getByRole("button", { name: "Log in" }).click()
    await waitForDesktop(page, owner)
    return page
  }
})
