/**
 * The world's square in the browser, as people use it: the rail leads to /world; a post made in
 * another person's browser arrives on the owner's screen without a reload, tinting the place by
 * the square's mood; a post's author leads to their page; the owner runs a beat of the square's
 * life and a greeting (citizens speak from their own lines, no model bound), which a member is not
 * offered; and on a phone the square fits the screen and posts work.
 */
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { rail, watchForBreakage } from "./flows.ts"
import { nodeWithTwoPeople, overflow, phone, type SignedIn } from "./people.ts"

describe("the world's square", () => {
  const people = nodeWithTwoPeople()

  /** A tab of the person on /world once the square and the live channel are up. */
  const openWorld = async (person: SignedIn, viewport?: { width: number; height: number }): Promise<Page> => {
    const page = await people.open(person, "/world", viewport)
    await page.getByRole("heading", { name: "World", level: 1 }).waitFor()
    await page.locator("world-place .ambient").waitFor()
    return page
  }

  const posts = (page: Page) => page.locator("world-place ol.posts > li")

  const post = async (page: Page, text: string): Promise<void> => {
    await page.getByLabel("Your post").fill(text)
    await page.getByRole("button", { name: "Post to the square" }).click()
  }

  test("a post from another person's browser arrives live, tints the place by the square's mood and leads to its author", async () => {
    const watching = await people.open(people.owner, "/")
    const problems = watchForBreakage(watching)
    await rail(watching).getByRole("link", { name: "World" }).click()
    await watching.getByRole("heading", { name: "World", level: 1 }).waitFor()
    expect(new URL(watching.url()).pathname).toBe("/world")
    await watching.getByText("The square is quiet.").waitFor()
    await watching.locator("world-place .ambient").filter({ hasText: "The square feels calm." }).waitFor()
    expect(await watching.locator("world-place").getAttribute("data-mood")).toBe("calm")

    const writing = await openWorld(people.member)
    await post(writing, "What a wonderful, happy morning! I love this square.")
    // The writer's own post, once, and the other screen's without a reload.
    await expect
      .poll(() => posts(writing).allTextContents())
      .toEqual([expect.stringContaining("What a wonderful, happy morning!")])
    await expect
      .poll(() => posts(watching).allTextContents())
      .toEqual([expect.stringContaining("What a wonderful, happy morning!")])
    await expect.poll(() => writing.getByLabel("Your post").inputValue()).toBe("")
    const arrived = posts(watching).first()
    await expect.poll(() => arrived.textContent()).toMatch(/Milo Member[\s\S]*joyful/)
    // The square's mood follows: the place's tone and its words.
    await expect.poll(() => watching.locator("world-place").getAttribute("data-mood")).toBe("joyful")
    await watching.locator("world-place .ambient").filter({ hasText: "The square feels joyful." }).waitFor()
    const tint = await watching
      .locator("world-place section.square")
      .evaluate((square) => getComputedStyle(square).backgroundColor)

    await post(writing, "Awful news today. I am sad, angry and worried.")
    await post(writing, "Terrible, horrible, miserable day. I hate this.")
    await expect.poll(() => posts(watching).count()).toBe(3)
    await expect.poll(() => watching.locator("world-place").getAttribute("data-mood")).not.toBe("joyful")
    expect(
      await watching
        .locator("world-place section.square")
        .evaluate((square) => getComputedStyle(square).backgroundColor)
    ).not.toBe(tint)

    // The author's name leads to their page.
    await arrived.getByRole("link", { name: "Milo Member" }).click()
    await watching.getByRole("heading", { name: "Milo Member", level: 1 }).waitFor()
    expect(new URL(watching.url()).pathname).toBe(`/beings/${people.member.being.id}`)
    expect(problems).toEqual([])
  })

  test("the owner runs a beat of the square's life and a greeting; a member is not offered either", async () => {
    const page = await openWorld(people.owner)
    const problems = watchForBreakage(page)
    const before = await posts(page).count()
    await page.getByRole("button", { name: "One beat of life" }).click()
    await page
      .locator("square-composer")
      .getByText(/spoke\.$/)
      .waitFor()
    await expect.poll(() => posts(page).count()).toBe(before + 3)
    const citizensSpoke = await posts(page)
      .locator(".meta a")
      .evaluateAll((links) => links.slice(0, 3).map((link) => link.getAttribute("href")))
    for (const href of citizensSpoke) expect(href).toMatch(/^\/beings\/citizen-/)

    await page.getByRole("button", { name: "Greet me" }).click()
    await page
      .locator("square-composer")
      .getByText(/greeted you\.$/)
      .waitFor()
    await expect.poll(() => posts(page).count()).toBe(before + 6)
    for (const greeting of await posts(page)
      .locator(".content")
      .allTextContents()
      .then((all) => all.slice(0, 3))) {
      expect(greeting).toContain("Olive Owner")
    }

    const asMember = await openWorld(people.member)
    await expect.poll(() => posts(asMember).count()).toBe(before + 6)
    expect(await asMember.getByRole("button", { name: "One beat of life" }).count()).toBe(0)
    expect(await asMember.getByRole("button", { name: "Greet me" }).count()).toBe(0)
    expect(problems).toEqual([])
  })

  test("on a phone the square fits the screen and a post goes up", async () => {
    const page = await openWorld(people.member, phone)
    const problems = watchForBreakage(page)
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    const long = `A long word for a narrow screen: ${"supercalifragilistic".repeat(6)}`
    await post(page, long)
    await expect.poll(() => posts(page).first().textContent()).toContain("supercalifragilistic")
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    const box = await page.getByRole("button", { name: "Post to the square" }).boundingBox()
    expect(box!.x + box!.width).toBeLessThanOrEqual(phone.width)
    expect(problems).toEqual([])
  })
})
