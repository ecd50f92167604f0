/**
 * The rail at a phone's width: the first four places keep a tab each with its whole label, and
 * "More" opens a sheet with the rest, by mouse or keyboard; the sheet closes on a choice and on
 * Escape (the keyboard back on "More"). A wide screen lists every place and has no "More".
 */
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { focused, rail, watchForBreakage } from "./flows.ts"
import { desktop, nodeWithTwoPeople, overflow, phone } from "./people.ts"

const tabs = ["Desktop", "Muse", "Studio", "Work"]
const underMore = ["Messages", "Twin", "Spaces", "Beings", "World", "Market", "Settings", "Moderation", "Admin"]

/** The names of the rail's links a person can see now. */
const visibleLinks = (page: Page) => rail(page).getByRole("link").allInnerTexts()

/** Whether some label of the rail is cut (its text wider than its box). */
const cutLabels = (page: Page) =>
  page
    .locator("node-rail a span, node-rail .more-button span:not(.sr-only)")
    .evaluateAll((spans) =>
      spans
        .filter((span) => span.getClientRects().length > 0 && span.scrollWidth > span.clientWidth)
        .map((span) => span.textContent)
    )

describe("the rail on a phone", () => {
  const people = nodeWithTwoPeople()

  test("four tabs with whole labels, the rest under More; a choice and Escape close it", async () => {
    const page = await people.open(people.owner, "/", phone)
    const problems = watchForBreakage(page)
    const more = rail(page).getByRole("button", { name: "More" })
    expect((await visibleLinks(page)).map((text) => text.trim())).toEqual(tabs)
    expect(await cutLabels(page)).toEqual([])
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    expect(await more.getAttribute("aria-expanded")).toBe("false")

    await more.click()
    await rail(page).getByRole("link", { name: "Settings" }).waitFor()
    expect((await visibleLinks(page)).map((text) => text.trim())).toEqual([...tabs, ...underMore])
    // The popover shows at once; its `toggle` event, which the rail says as aria-expanded, comes a task later.
    await expect.poll(() => more.getAttribute("aria-expanded")).toBe("true")
    await rail(page).getByRole("link", { name: "Settings" }).click()
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/settings")
    expect((await visibleLinks(page)).map((text) => text.trim())).toEqual(tabs)

    // By keyboard: Enter opens, Tab walks into the sheet, Escape closes it and leaves the keyboard on More.
    await more.focus()
    await page.keyboard.press("Enter")
    await rail(page).getByRole("link", { name: "Messages" }).waitFor()
    await page.keyboard.press("Tab")
    expect(await focused(page)).toEqual({ tag: "a", text: "Messages" })
    await page.keyboard.press("Escape")
    await rail(page).getByRole("link", { name: "Messages" }).waitFor({ state: "hidden" })
    expect((await focused(page)).tag).toBe("button")
    await expect.poll(() => more.getAttribute("aria-expanded")).toBe("false")
    expect(problems).toEqual([])
  })

  test("a member's More holds no owner's places; a wide screen lists every place and no More", async () => {
    const phoneTab = await people.open(people.member, "/", phone)
    await rail(phoneTab).getByRole("button", { name: "More" }).click()
    await rail(phoneTab).getByRole("link", { name: "Settings" }).waitFor()
    expect((await visibleLinks(phoneTab)).map((text) => text.trim())).toEqual([
      ...tabs,
      "Messages",
      "Twin",
      "Spaces",
      "Beings",
      "World",
      "Market",
      "Settings"
    ])

    const wide = await people.open(people.owner, "/", desktop)
    expect((await visibleLinks(wide)).map((text) => text.trim())).toEqual([...tabs, ...underMore])
    expect(await rail(wide).getByRole("button", { name: "More" }).count()).toBe(0)
  })
})
