/**
 * Settings → Your data in the browser (issue 29): the owner makes a backup with a passphrase, verifies it and
 * downloads it; exports their data; imports a calendar and sees its event in /twin's agenda.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { owner, registerThroughApi } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const PASSPHRASE = "correct horse battery staple"

/** Today at noon UTC, as an iCalendar date-time: inside the agenda's week whatever the day. */
const noonToday = () => `${new Date().toISOString().slice(0, 10).replace(/-/g, "")}T120000Z`

describe("Settings → Your data", () => {
  let node: RunningNode
  let browser: Browser
  let context: BrowserContext
  let page: Page

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    const [pair] = registered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")
    context = await browser.newContext({ acceptDownloads: true })
    await context.addCookies([{ name: "svc_session", value: pair!.slice("svc_session=".length), url: node.url }])
    page = await context.newPage()
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await node?.stop()
  })

  test("makes, verifies and downloads a backup, and exports", async () => {
    await page.goto(`${node.url}/settings?section=data`)
    const backups = page.locator("settings-backups")
    await backups.getByText("No backups yet.").waitFor()
    await backups.getByLabel("Passphrase").fill(PASSPHRASE)
    await backups.getByRole("button", { name: "Make a backup" }).click()
    await backups.getByText(/^Backup made:/).waitFor({ timeout: 30_000 })
    const row = backups.locator("tr.backup")
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain("memories")

    page.once("dialog", (dialog) => void dialog.accept(PASSPHRASE))
    await row.getByRole("button", { name: "Verify" }).click()
    await row.getByText("Verified: it opens and every part is whole.").waitFor({ timeout: 30_000 })

    const [backupFile] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("link", { name: "Download" }).click()
    ])
    expect(backupFile.suggestedFilename()).toMatch(/^backup-\d{8}T\d{6}Z\.tar\.gz\.age$/)

    const [exported] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Export my data" }).click()
    ])
    expect(exported.suggestedFilename()).toMatch(new RegExp(`^export-${owner.handle}-\\d{4}-\\d{2}-\\d{2}\\.zip$`))
  })

  test("imports a calendar and shows its event in the agenda", async () => {
    await page.goto(`${node.url}/settings?section=data`)
    const calendar = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Another Program//EN",
      "BEGIN:VEVENT",
      "UID:lunch-1@another.example",
      `DTSTAMP:${noonToday()}`,
      `DTSTART:${noonToday()}`,
      "SUMMARY:Lunch with Grace",
      "END:VEVENT",
      "END:VCALENDAR",
      ""
    ].join("\r\n")
    await page.locator("settings-your-data input[type=file]").setInputFiles({
      name: "lunch.ics",
      mimeType: "text/calendar",
      buffer: Buffer.from(calendar)
    })
    await page.getByRole("button", { name: "Import", exact: true }).click()
    await page.getByText("Imported 1 events, 0 to-dos, 0 notes and 0 conversations.").waitFor()

    await page.goto(`${node.url}/twin?section=agenda`)
    await page.locator("twin-agenda").getByText("Lunch with Grace").waitFor()
  })
})
