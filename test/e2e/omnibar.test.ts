/**
 * The omnibar in the shell's top bar, at a desktop's and a phone's width, on a node with no model
 * bound: "/" or Ctrl+K gives it the keyboard; a make sentence starts a project and opens its page
 * (the project exists whether or not a model runs it); other words find places by name and the
 * person's memories, by arrow keys and Enter or by a click.
 */
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { focused, watchForBreakage } from "./flows.ts"
import { desktop, nodeWithTwoPeople, overflow, phone, type SignedIn } from "./people.ts"

const omnibar = (page: Page) => page.getByRole("combobox", { name: "Search or make" })
const results = (page: Page) => page.getByRole("listbox", { name: "Results" })

const api = (people: ReturnType<typeof nodeWithTwoPeople>, who: SignedIn, path: string, body?: unknown) =>
  fetch(`${people.node.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json", cookie: `svc_session=${who.session}`, origin: people.node.url },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

describe("the omnibar", () => {
  const people = nodeWithTwoPeople()

  for (const [name, viewport] of [
    ["desktop", desktop],
    ["phone", phone]
  ] as const) {
    test(`a make sentence starts a project and opens it (${name})`, async () => {
      const page = await people.open(people.member, "/", viewport)
      const problems = watchForBreakage(page)
      await page.keyboard.press("/")
      expect((await focused(page)).tag).toBe("input")
      await page.keyboard.type(`write a haiku about rain on the ${name}`)
      await results(page)
        .getByRole("option", { name: `Start a project: write a haiku about rain on the ${name}` })
        .waitFor()
      await page.keyboard.press("Enter")
      await page.waitForURL(/\/studio\/[^/]+$/)
      const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!)
      const mine = (await (await api(people, people.member, "/api/studio/projects")).json()) as Array<{
        id: string
        brief: string
      }>
      expect(mine.find((project) => project.id === id)?.brief).toBe(`write a haiku about rain on the ${name}`)
      expect(await overflow(page)).toBeLessThanOrEqual(0)
      expect(problems).toEqual([])
    })
  }

  test("words find a place by name, by arrow keys and Enter (phone)", async () => {
    const page = await people.open(people.member, "/", phone)
    await page.keyboard.press("Control+k")
    await page.keyboard.type("market")
    await results(page).getByRole("option", { name: "Market" }).waitFor()
    await page.keyboard.press("ArrowDown")
    expect(await results(page).getByRole("option", { name: "Market" }).getAttribute("aria-selected")).toBe("true")
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.pathname === "/market")
    await page.getByRole("heading", { name: "Market", level: 1 }).waitFor()
    expect(await omnibar(page).inputValue()).toBe("")
  })

  test("a memory of one's own appears and opens the twin by a click; another's never (desktop)", async () => {
    expect(
      (await api(people, people.member, "/api/twin/memories", { content: "Plum jam keeps a year in the cellar" }))
        .status
    ).toBe(200)
    expect(
      (await api(people, people.owner, "/api/twin/memories", { content: "The owner's plum orchard is secret" })).status
    ).toBe(200)
    const page = await people.open(people.member, "/studio", desktop)
    await omnibar(page).click()
    await page.keyboard.type("plum")
    const memory = results(page).getByRole("option", { name: "Plum jam keeps a year in the cellar" })
    await memory.waitFor()
    expect(
      await results(page)
        .getByRole("option", { name: /orchard/ })
        .count()
    ).toBe(0)
    await memory.click()
    await page.waitForURL((url) => url.pathname === "/twin" && url.searchParams.get("section") === "memories")
  })

  test("\"/\" typed in a field is the field's, not the omnibar's", async () => {
    const page = await people.open(people.member, "/", desktop)
    await omnibar(page).click()
    await page.keyboard.type("a/b")
    expect(await omnibar(page).inputValue()).toBe("a/b")
  })
})
