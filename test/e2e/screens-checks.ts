/**
 * What each place the screens test photographs (screens.test.ts) is checked for, as a person
 * would notice it: the browser logs no error but the refusals a place shows in words, and on a
 * phone nothing runs off the side of the screen.
 */
import type { Page } from "playwright-core"
import { expect } from "vitest"

/**
 * Refusals a place shows in words, which Chromium also logs as a failed resource: a stale
 * confirmation token (400), and asking who is signed in while nobody is (401; the app reads it
 * as "signed out").
 */
const expectedRefusals = [/status of 400 .*\/api\/auth\/verify$/, /status of 401 .*\/api\/auth\/me$/]

/** What the browser would complain about: uncaught errors and every other console error. */
export const watchConsole = (page: Page): Array<string> => {
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`))
  page.on("console", (message) => {
    const text = `${message.text()} (${message.location().url})`
    if (message.type() === "error" && !expectedRefusals.some((refusal) => refusal.test(text.replace(/\)$/, ""))))
      problems.push(text)
  })
  return problems
}

/** Whether the page is wider than the screen (something runs off its side). */
const overflow = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)

/**
 * On a phone: nothing runs off the side of the page, no table cell is cut off at the screen's
 * edge (a table scrolled sideways inside its card would be), and the rail is one bar of at most
 * two rows (the brand and its buttons, then the places).
 */
export const fitsAPhone = async (page: Page, name: string): Promise<void> => {
  expect(await overflow(page), `${name} runs off a phone's screen`).toBeLessThanOrEqual(0)
  const width = page.viewportSize()?.width ?? 0
  const cells = await page.locator("td").evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().right))
  for (const right of cells) expect(right, `a cell of ${name} is cut off`).toBeLessThanOrEqual(width)
  const rail = await page.getByRole("navigation", { name: "Places" }).boundingBox()
  expect(rail!.height, `the rail of ${name}`).toBeLessThanOrEqual(112)
}
