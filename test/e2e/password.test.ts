/**
 * Changing the password from Settings: a wrong current password is refused in the node's words
 * and two different new passwords are caught before sending; the change signs out the other
 * device, keeps this one, and the new password is the one that logs in.
 */
import type { Browser, BrowserContext, Page, Response } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { logIn, type Person, registerThroughApi, submitLogin, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

const isPasswordChange = (response: Response) =>
  response.request().method() === "POST" && new URL(response.url()).pathname === "/api/auth/password"

describe("the password in Settings", () => {
  let node: RunningNode
  let browser: Browser
  const contexts: Array<BrowserContext> = []

  const freshPage = async (): Promise<Page> => {
    const context = await browser.newContext()
    contexts.push(context)
    return context.newPage()
  }

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    await registerThroughApi(node.url, owner, node.ownerCode)
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
  })

  test("refuses a wrong current password, catches a mistyped new one, then changes it and signs out the other device", async () => {
    const here = await freshPage()
    const elsewhere = await freshPage()
    const breakage = watchForBreakage(here)
    await logIn(here, node.url, owner)
    await logIn(elsewhere, node.url, owner)

    await here.goto(`${node.url}/settings`)
    const section = here.locator("settings-password")
    await section.getByRole("heading", { name: "Password" }).waitFor()
    const current = section.getByLabel("Current password")
    const fresh = section.getByLabel("New password", { exact: true })
    const again = section.getByLabel("The new password again")
    expect(await current.getAttribute("autocomplete")).toBe("current-password")
    expect(await fresh.getAttribute("autocomplete")).toBe("new-password")

    // A wrong current password: the node refuses, in its words.
    await current.fill("not-my-password")
    await fresh.fill("olive-password-2")
    await again.fill("olive-password-2")
    const refused = here.waitForResponse(isPasswordChange)
    await section.getByRole("button", { name: "Change the password" }).click()
    expect((await refused).status()).toBe(403)
    await section
      .getByRole("alert")
      .filter({ hasText: "That is not your current password. Nothing was changed." })
      .waitFor()

    // Two different new passwords never leave the page.
    let sent = 0
    here.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/auth/password") sent += 1
    })
    await current.fill(owner.password)
    await again.fill("olive-password-3")
    await section.getByRole("button", { name: "Change the password" }).click()
    await section.getByRole("alert").filter({ hasText: "The two new passwords differ." }).waitFor()
    expect(sent).toBe(0)

    await again.fill("olive-password-2")
    const changing = here.waitForResponse(isPasswordChange)
    await section.getByRole("button", { name: "Change the password" }).click()
    const changed = await changing
    expect(changed.status()).toBe(200)
    expect(changed.request().postDataJSON()).toEqual({
      currentPassword: owner.password,
      newPassword: "olive-password-2"
    })
    // The other device's session and the one registering opened.
    await section
      .getByRole("status")
      .filter({ hasText: "Your password is changed. 2 other sessions were signed out." })
      .waitFor()
    expect(await current.inputValue()).toBe("")
    expect(await fresh.inputValue()).toBe("")

    // This device stays signed in; the other is signed out.
    await here.reload()
    await here.locator("settings-password").getByRole("heading", { name: "Password" }).waitFor()
    await elsewhere.reload()
    await elsewhere.getByRole("heading", { name: "Log in" }).waitFor()

    // The old password no longer logs in; the new one does.
    await submitLogin(elsewhere, owner.email, owner.password)
    await elsewhere.getByRole("alert").filter({ hasText: "That email and password do not match an account." }).waitFor()
    await submitLogin(elsewhere, owner.email, "olive-password-2")
    await waitForDesktop(elsewhere, owner)
    expect(breakage).toEqual([])
  })
})
