/**
 * The beings in the browser, as people use them: the rail leads to /beings, where people, the
 * citizens (with their role) and who is online show, a member's dot turning live as they open a
 * tab; a citizen's page shows its soul without its prompt to a member; the owner edits a soul with
 * the form, generates one from an archetype and drifts its mood, and the prompt follows; a person
 * changes their own name and recompiles their prompt; and at a phone's width both pages fit.
 */
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { personas } from "../../seeds/personas.ts"
import { rail, watchForBreakage } from "./flows.ts"
import { nodeWithTwoPeople, overflow, phone } from "./people.ts"

const juno = personas.find((persona) => persona.role === "lead")!

describe("the beings and their souls", () => {
  const people = nodeWithTwoPeople()

  const listed = (page: Page, id: string) => page.locator(`beings-place li[data-being="${id}"]`)
  const soul = (page: Page) => page.locator("soul-view")
  /** A field the soul view shows (not the compiled prompt, which repeats them). */
  const shown = (page: Page, text: string | RegExp) => soul(page).locator("dd, .mood").getByText(text)

  test("the rail leads to every being, citizens with their role, and a member comes online live", async () => {
    const page = await people.open(people.owner, "/")
    const problems = watchForBreakage(page)
    await rail(page).getByRole("link", { name: "Beings" }).click()
    await page.getByRole("heading", { name: "Beings", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/beings")
    await expect
      .poll(() => listed(page, people.owner.being.id).textContent())
      .toMatch(/Olive Owner[\s\S]*@olive[\s\S]*Owner[\s\S]*You[\s\S]*Online/)
    await expect.poll(() => listed(page, "citizen-lead").textContent()).toMatch(/Juno[\s\S]*lead[\s\S]*Offline/)
    expect(await page.locator("beings-place section").filter({ hasText: "Citizens" }).locator("li").count()).toBe(
      personas.length
    )
    const milo = listed(page, people.member.being.id)
    await expect.poll(() => milo.locator(".presence").textContent()).toBe("Offline")

    const milosTab = await people.open(people.member, "/")
    await expect.poll(() => milo.locator(".presence").textContent()).toBe("Online")
    await milosTab.close()
    await expect.poll(() => milo.locator(".presence").textContent()).toBe("Offline")

    await listed(page, "citizen-lead").getByRole("link", { name: "Juno" }).click()
    await page.getByRole("heading", { name: "Juno", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/beings/citizen-lead")
    await shown(page, juno.voice).waitFor()
    for (const value of juno.values) await shown(page, value).waitFor()
    expect(await page.getByText(juno.description).count()).toBe(1)
    // The owner reads the compiled prompt.
    await soul(page).getByText("System prompt").click()
    await soul(page).getByText("You are Juno, a citizen of this world.").waitFor()
    expect(problems).toEqual([])
  })

  test("a member reads a citizen's soul without its prompt and is offered no editing", async () => {
    const page = await people.open(people.member, "/beings/citizen-lead")
    await shown(page, juno.voice).waitFor()
    await shown(page, /^Feeling /).waitFor()
    expect(await soul(page).getByText("System prompt").count()).toBe(0)
    for (const heading of ["Edit the soul", "Generate a soul", "Mood and prompt", "Your name and handle"]) {
      expect(await page.getByRole("heading", { name: heading }).count(), heading).toBe(0)
    }
  })

  test("the owner edits a soul with the form, generates one from an archetype and drifts its mood", async () => {
    const page = await people.open(people.owner, `/beings/${people.member.being.id}`)
    const problems = watchForBreakage(page)
    await page.getByRole("heading", { name: "Milo Member", level: 1 }).waitFor()
    const editor = page.locator("soul-editor")
    await editor.getByLabel("Warmth").fill("0.9")
    await editor.getByLabel("Voice").fill("Slow and salty, like a harbour pilot.")
    await editor.getByLabel("Values, one a line").fill("tides\ngood rope")
    await editor.getByLabel("Purpose").fill("To bring every boat in safe.")
    await editor.getByRole("button", { name: "Save the soul" }).click()
    await editor.getByText("The soul is saved and its prompt compiled.").waitFor()
    await shown(page, "Slow and salty, like a harbour pilot.").waitFor()
    await shown(page, "good rope").waitFor()
    await expect
      .poll(() =>
        soul(page)
          .locator("meter[aria-labelledby=trait-warmth]")
          .evaluate((meter) => (meter as HTMLMeterElement).value)
      )
      .toBe(0.9)
    await page.locator(".summary").getByText("To bring every boat in safe.").waitFor()
    await soul(page).getByText("System prompt").click()
    await soul(page)
      .getByText(/Your voice: Slow and salty, like a harbour pilot\./)
      .waitFor()

    const generate = page.locator("soul-generate")
    await generate.getByLabel("Archetype").selectOption("jester")
    await generate.getByLabel("Seed", { exact: true }).fill("harbour")
    await generate.getByRole("button", { name: "Generate" }).click()
    await generate.getByText("A new soul, generated from the jester archetype.").waitFor()
    await expect.poll(() => shown(page, "Slow and salty, like a harbour pilot.").count()).toBe(0)
    // The editor shows the generated soul, ready to be edited in turn.
    const voice = await editor.getByLabel("Voice").inputValue()
    expect(voice).not.toBe("Slow and salty, like a harbour pilot.")
    await shown(page, voice).waitFor()

    const mood = page.locator("soul-mood")
    await mood.getByLabel("What happened").fill("Terrible news: the harbour burned down. I am furious and scared!")
    await mood.getByRole("button", { name: "Drift the mood" }).click()
    await mood.getByText(/^The mood drifted: now tense/).waitFor()
    await shown(page, /^Feeling tense/).waitFor()
    expect(problems).toEqual([])
  })

  test("a person changes their own name and handle, and recompiles their prompt to speak as it", async () => {
    const page = await people.open(people.member, `/beings/${people.member.being.id}`)
    const profile = page.locator("being-profile")
    await profile.getByLabel("Name", { exact: true }).fill("Milo Harbour")
    await profile.getByLabel("Handle", { exact: true }).fill("milo_h")
    await profile.getByRole("button", { name: "Save" }).click()
    await page.getByRole("heading", { name: "Milo Harbour", level: 1 }).waitFor()
    await page.getByText("@milo_h").first().waitFor()
    expect(await page.getByRole("heading", { name: "Edit the soul" }).count()).toBe(0)

    await page.locator("soul-mood").getByRole("button", { name: "Recompile the prompt" }).click()
    await page.locator("soul-mood").getByText("The prompt is compiled again from the soul's fields.").waitFor()
    await soul(page).getByText("System prompt").click()
    await soul(page).getByText("You are Milo Harbour, a citizen of this world.").waitFor()

    // A handle someone holds is refused in the node's words, and nothing changes.
    await profile.getByLabel("Handle", { exact: true }).fill("olive")
    await profile.getByRole("button", { name: "Save" }).click()
    await profile.getByText("The handle @olive is taken. Pick another.").waitFor()
    await page.getByRole("heading", { name: "Milo Harbour", level: 1 }).waitFor()
  })

  test("at a phone's width the list and a soul's page with its editing fit the screen", async () => {
    const list = await people.open(people.owner, "/beings", phone)
    await listed(list, "citizen-lead").waitFor()
    expect(await overflow(list)).toBeLessThanOrEqual(0)
    const page = await people.open(people.owner, `/beings/${people.member.being.id}`, phone)
    await page.locator("soul-editor").getByRole("button", { name: "Save the soul" }).waitFor()
    expect(await overflow(page)).toBeLessThanOrEqual(0)
    const save = await page.locator("soul-editor").getByRole("button", { name: "Save the soul" }).boundingBox()
    expect(save!.x + save!.width).toBeLessThanOrEqual(phone.width)
  })
})
