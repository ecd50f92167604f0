/**
 * The flows that go through a mailbox, in the browser against a node with a real SMTP server
 * (Debian's aiosmtpd): the owner invites someone by mail and sees the invitation spent once they
 * register from its link; a person resets a forgotten password from the link in the mail; a
 * person confirms their address from Settings and the link in the mail.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type Mail, SmtpServer } from "../support/smtp.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, submitLogin, submitRegistration, waitForDesktop, watchForBreakage } from "./flows.ts"
import { freePort, type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

describe("mail flows in the browser", () => {
  let smtp: SmtpServer
  let node: RunningNode
  let browser: Browser
  let ownerContext: BrowserContext
  const contexts: Array<BrowserContext> = []

  const freshPage = async (): Promise<Page> => {
    const context = await browser.newContext()
    contexts.push(context)
    return context.newPage()
  }

  /** The link to `path` in a mail, checked to lead to this node, as the person would click it. */
  const linkIn = (mail: Mail, path: string): string => {
    const link = new RegExp(`https?://\\S+/${path}\\?\\S+`).exec(mail.body)?.[0]
    expect(link, `a /${path} link in: ${mail.body}`).toBeDefined()
    expect(new URL(link!).origin).toBe(node.url)
    return link!
  }

  /** A person with an account, signed in in a browser of their own; the owner hands them a code. */
  const joinWithCode = async (person: Person): Promise<Page> => {
    const minted = await ownerContext.request.post(`${node.url}/api/auth/codes`, {
      data: { count: 1, note: `for ${person.handle}` }
    })
    expect(minted.status()).toBe(200)
    const [{ code }] = (await minted.json()) as Array<{ code: string }>
    const page = await freshPage()
    await page.goto(`${node.url}/register?code=${encodeURIComponent(code)}`)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(code)
    await submitRegistration(page, person)
    await waitForDesktop(page, person)
    return page
  }

  beforeAll(async () => {
    const port = await freePort()
    ;[smtp, browser] = await Promise.all([SmtpServer.start(), launchBrowser()])
    node = await startNode({ env: { SMTP_URL: smtp.url, MAIL_FROM: "node@example.org", PORT: String(port) } })
    const response = await fetch(`${node.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...owner, accessCode: node.ownerCode })
    })
    expect(response.status).toBe(200)
    ownerContext = await browser.newContext()
    contexts.push(ownerContext)
    const page = await ownerContext.newPage()
    await page.goto(`${node.url}/login`)
    await submitLogin(page, owner.email, owner.password)
    await waitForDesktop(page, owner)
    await page.close()
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
    smtp?.stop()
  })

  test("the owner invites by mail; the code is masked; the invited person registers from the link; the invitation is spent", async () => {
    const invited: Person = {
      displayName: "Ines Invited",
      handle: "ines",
      email: "ines@example.org",
      password: "ines-password-1"
    }
    const page = await ownerContext.newPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/admin`)
    const invites = page.locator("admin-invites")
    await invites.getByLabel("Email", { exact: true }).fill(invited.email)
    await invites.getByLabel("Note", { exact: true }).fill("Come and see the node")
    await invites.getByRole("button", { name: "Send an invitation" }).click()
    await invites
      .getByRole("status")
      .filter({ hasText: `An invitation is on its way to ${invited.email}.` })
      .waitFor()

    const [mail] = await smtp.waitFor(invited.email)
    expect(mail.body).toContain("Come and see the node")
    const link = linkIn(mail, "register")
    const code = new URL(link).searchParams.get("code") ?? ""
    expect(code).not.toBe("")

    const row = invites.locator("tr", { hasText: invited.email })
    await row.filter({ hasText: "Come and see the node" }).waitFor()
    const cells = row.locator("td")
    expect((await cells.nth(2).textContent())?.trim()).toBe("Sent")
    expect((await cells.nth(3).textContent())?.trim()).toBe("Unused")
    const mask = (await cells.nth(1).textContent())?.trim() ?? ""
    expect(mask).toContain("•")
    expect(mask.startsWith(code.slice(0, 2)) && mask.endsWith(code.slice(-2))).toBe(true)
    expect(await invites.textContent()).not.toContain(code)

    const guest = await freshPage()
    const guestBreakage = watchForBreakage(guest)
    await guest.goto(link)
    await expect.poll(() => guest.getByLabel("Access code").inputValue()).toBe(code)
    await submitRegistration(guest, invited)
    await waitForDesktop(guest, invited)

    await page.reload()
    await expect
      .poll(async () =>
        (await invites.locator("tr", { hasText: invited.email }).locator("td").nth(3).textContent())?.trim()
      )
      .toBe("Used")
    expect(breakage).toEqual([])
    expect(guestBreakage).toEqual([])
    await page.close()
  })

  test("a person resets a forgotten password from the mailed link; the old session ends and the new password works", async () => {
    const person: Person = {
      displayName: "Rosa Reset",
      handle: "rosa",
      email: "rosa@example.org",
      password: "rosa-password-1"
    }
    const newPassword = "rosa-new-password-2"
    const oldSession = await joinWithCode(person)

    const page = await freshPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/reset`)
    await page.getByLabel("Email").fill(person.email)
    await page.getByRole("button", { name: "Send a reset link" }).click()
    await page
      .getByRole("status")
      .filter({ hasText: "If an account uses that address, a reset link is on its way." })
      .waitFor()

    const [mail] = await smtp.waitFor(person.email)
    await page.goto(linkIn(mail, "reset"))
    await page.getByRole("heading", { name: "Set a new password" }).waitFor()
    await page.getByLabel("New password").fill(newPassword)
    await page.getByLabel("The same password again").fill(`${newPassword}x`)
    await page.getByRole("button", { name: "Set the password" }).click()
    await page.getByRole("alert").filter({ hasText: "The two passwords differ." }).waitFor()
    await page.getByLabel("The same password again").fill(newPassword)
    await page.getByRole("button", { name: "Set the password" }).click()
    await page.getByRole("status").filter({ hasText: "Your new password is set" }).waitFor()

    await oldSession.reload()
    await oldSession.getByRole("heading", { name: "Log in" }).waitFor()

    await page.goto(`${node.url}/login`)
    await submitLogin(page, person.email, person.password)
    await page.getByRole("alert").filter({ hasText: /\S/ }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/login")
    await submitLogin(page, person.email, newPassword)
    await waitForDesktop(page, person)
    expect(breakage).toEqual([])
  })

  test("Settings sends a confirmation mail; its link confirms the address, and Settings says so", async () => {
    const person: Person = {
      displayName: "Vera Verify",
      handle: "vera",
      email: "vera@example.org",
      password: "vera-password-1"
    }
    const page = await joinWithCode(person)
    const breakage = watchForBreakage(page)
    await rail(page).getByRole("link", { name: "Settings" }).click()
    const email = page.locator("settings-email")
    await email
      .locator(".email-state")
      .filter({ hasText: `${person.email}: not confirmed yet.` })
      .waitFor()
    await email.getByRole("button", { name: "Send a confirmation mail" }).click()
    await email
      .getByRole("status")
      .filter({ hasText: `A confirmation mail is on its way to ${person.email}.` })
      .waitFor()
    await email.locator(".email-state").filter({ hasText: "a confirmation mail is on its way" }).waitFor()

    const [mail] = await smtp.waitFor(person.email)
    await page.goto(linkIn(mail, "verify"))
    await page.getByRole("status").filter({ hasText: "Your email address is confirmed." }).waitFor()

    await rail(page).getByRole("link", { name: "Settings" }).click()
    await email
      .locator(".email-state")
      .filter({ hasText: `${person.email}: confirmed on ` })
      .waitFor()
    expect(await email.getByRole("button", { name: /confirmation mail/ }).count()).toBe(0)
    expect(breakage).toEqual([])
  })
})
