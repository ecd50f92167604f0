/**
 * /spaces in Chromium, wide and on a phone: the owner makes a company and a crew inside it (the
 * tree nests it), adds a person with a role, moves the crew to the top, binds it as a project's
 * crew and removes the person, each seen on screen; at 390px the same place fits the width.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { openFromRail, type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const bea: Person = { displayName: "Bea Writer", handle: "bea", email: "bea@example.org", password: "bea-password-12" }

const sessionCookie = (response: globalThis.Response) => {
  const [pair] = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  const split = pair!.indexOf("=")
  return { name: pair!.slice(0, split), value: pair!.slice(split + 1) }
}

describe("the spaces place", () => {
  let node: RunningNode
  let browser: Browser
  let session: { readonly name: string; readonly value: string }
  let projectTitle = ""
  const contexts: Array<BrowserContext> = []

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    session = sessionCookie(await registerThroughApi(node.url, owner, node.ownerCode))
    const asOwner = { "content-type": "application/json", cookie: `${session.name}=${session.value}`, origin: node.url }
    const codes = (await (
      await fetch(`${node.url}/api/auth/codes`, {
        method: "POST",
        headers: asOwner,
        body: JSON.stringify({ count: 1, note: "Bea" })
      })
    ).json()) as Array<{ code: string }>
    await registerThroughApi(node.url, bea, codes[0]!.code)
    // A project to bind a crew to (with no model its run fails at once; the binding does not care).
    const project = (await (
      await fetch(`${node.url}/api/studio/projects`, {
        method: "POST",
        headers: asOwner,
        body: JSON.stringify({ brief: "Write a letter to the council." })
      })
    ).json()) as { title: string }
    projectTitle = project.title
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
  })

  const openSpaces = async (viewport: { width: number; height: number }): Promise<Page> => {
    const context = await browser.newContext({ viewport })
    contexts.push(context)
    await context.addCookies([{ ...session, url: node.url }])
    const page = await context.newPage()
    await page.goto(`${node.url}/`)
    await openFromRail(page, "Spaces")
    await page.getByRole("heading", { name: "Spaces", level: 1 }).waitFor()
    return page
  }

  const fitsTheWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

  const tree = (page: Page) => page.locator("spaces-place .tree").first()

  test("at 1280px: makes a company and a crew inside it, adds a person with a role, moves the crew, binds it and removes the person", async () => {
    const page = await openSpaces({ width: 1280, height: 900 })
    const breakage = watchForBreakage(page)
    await page.getByText("You are in no group yet.").waitFor()

    const make = page.getByRole("form", { name: "Make a group" })
    await make.getByLabel("Name").fill("Acme")
    await make.getByLabel("Kind").fill("company")
    await make.getByRole("button", { name: "Make the group" }).click()
    await page.getByRole("heading", { name: "Acme (company)" }).waitFor()
    const members = page.locator("spaces-group .members li")
    await members.filter({ hasText: "Olive Owner" }).filter({ hasText: "lead" }).waitFor()

    await make.getByLabel("Name").fill("Night crew")
    await make.getByLabel("Kind").fill("crew")
    await make.getByLabel("Inside").selectOption({ label: "Acme" })
    await make.getByRole("button", { name: "Make the group" }).click()
    await page.getByRole("heading", { name: "Night crew (crew)" }).waitFor()
    // The crew sits inside the company in the tree.
    await tree(page).locator("li").filter({ hasText: "Acme" }).locator(".tree li", { hasText: "Night crew" }).waitFor()

    const add = page.getByRole("form", { name: "Add a member" })
    await add.getByLabel("Being").selectOption({ label: "Bea Writer (@bea)" })
    await add.getByLabel("Role").fill("writer")
    await add.getByRole("button", { name: "Add or change the role" }).click()
    await members.filter({ hasText: "Bea Writer" }).filter({ hasText: "writer" }).waitFor()

    const move = page.getByRole("form", { name: "Move the group" })
    await move.getByLabel("Inside").selectOption({ label: "Nothing (a top-level group)" })
    await move.getByRole("button", { name: "Move" }).click()
    await page.getByText("Moved.").waitFor()
    await expect.poll(() => tree(page).locator(":scope > li").count()).toBe(2)

    const bind = page.getByRole("form", { name: "Bind as a crew" })
    await bind.getByLabel("Project").selectOption({ label: projectTitle })
    await bind.getByRole("button", { name: "Bind as its crew" }).click()
    await page.getByText("Bound: the project's next run draws people from this group's seats.").waitFor()

    await members.filter({ hasText: "Bea Writer" }).getByRole("button", { name: "Remove" }).click()
    await page.getByText("Bea Writer is no longer a member.").waitFor()
    await expect.poll(() => members.filter({ hasText: "Bea Writer" }).count()).toBe(0)
    // The last lead cannot go: the node says why.
    await members.filter({ hasText: "Olive Owner" }).getByRole("button", { name: "Remove" }).click()
    await page.getByText('"Night crew" would have no lead; make someone else its lead first.').waitFor()

    expect(await fitsTheWidth(page)).toBe(true)
    expect(breakage).toEqual([])
  })

  test("at 390px: the tree and a group's panel fit the phone's width", async () => {
    const page = await openSpaces({ width: 390, height: 844 })
    const breakage = watchForBreakage(page)
    await tree(page).getByRole("button", { name: "Acme" }).click()
    await page.getByRole("heading", { name: "Acme (company)" }).waitFor()
    const add = page.getByRole("form", { name: "Add a member" })
    await add.getByLabel("Being").selectOption({ label: "Bea Writer (@bea)" })
    await add.getByLabel("Role").fill("member")
    await add.getByRole("button", { name: "Add or change the role" }).click()
    await page
      .locator("spaces-group .members li")
      .filter({ hasText: "Bea Writer" })
      .filter({ hasText: "member" })
      .waitFor()
    expect(await fitsTheWidth(page)).toBe(true)
    expect(breakage).toEqual([])
  })
})
