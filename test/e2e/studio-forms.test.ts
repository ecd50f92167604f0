/**
 * The studio in the browser, against a node whose models are the scripted OpenAI server: the
 * owner registers, opens the Studio from the rail, sees the seeded generators and fills a form
 * drawn from its JSON Schema (a textarea, the Advanced area, a field shown by a checkbox, the
 * browser's own checks), the node's refusals in words.
 */
import type { Request } from "playwright-core"
import { describe, expect, test } from "vitest"
import { rail, submitRegistration, waitForDesktop } from "./flows.ts"
import { isProjectStart, studioSession } from "./studio-support.ts"
import { isCall, owner } from "./flows.ts"

describe("the studio", () => {
  const studio = studioSession()

  test("the owner registers; the gallery shows each generator, and a generator's form is drawn from its JSON Schema", async () => {
    await studio.page.goto(`${studio.node.url}/register?code=${encodeURIComponent(studio.node.ownerCode)}`)
    await expect.poll(() => studio.page.getByLabel("Access code").inputValue()).toBe(studio.node.ownerCode)
    await submitRegistration(studio.page, owner)
    await waitForDesktop(studio.page, owner)

    await rail(studio.page).getByRole("link", { name: "Studio" }).click()
    await studio.page.getByRole("heading", { name: "Generators" }).waitFor()
    expect(new URL(studio.page.url()).pathname).toBe("/studio")
    expect(await rail(studio.page).getByRole("link", { name: "Studio" }).getAttribute("aria-current")).toBe("page")
    expect(await rail(studio.page).getByRole("link", { name: "Work" }).count()).toBe(1)

    const blog = studio.gallery(studio.page).locator('li[data-slug="blog-post"]')
    await blog.waitFor()
    expect(await blog.locator("h3").textContent()).toBe("Blog post")
    // The generator's emoji is drawn as an SVG icon: no emoji font needed.
    expect(await blog.locator(".picture svg path").count()).toBe(1)
    expect(await blog.locator(".picture").textContent()).toBe("")
    expect(await blog.locator(".description").textContent()).toMatch(/^A researched, outlined and edited blog post/)
    expect(await blog.locator(".meta").innerText()).toMatch(/Makes: Markdown\s+Not run yet/)
    expect(await studio.gallery(studio.page).locator("li.generator").count()).toBeGreaterThanOrEqual(6)

    await blog.getByRole("link", { name: "Blog post" }).click()
    await studio.page.getByRole("heading", { name: "Blog post", level: 1 }).waitFor()
    expect(new URL(studio.page.url()).search).toBe("?generator=blog-post")
    // The keyboard is on the generator's heading, where the form begins.
    expect(
      await studio.page.evaluate(() => {
        let active = document.activeElement
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
        return active?.textContent?.trim()
      })
    ).toBe("Blog post")

    const form = studio.page.locator("schema-form")
    // A required string: its title as label, marked, with its description and limits as help and its placeholder.
    const topic = form.getByLabel("Topic")
    expect(
      await topic.evaluate((input: HTMLInputElement) => [
        input.tagName,
        input.type,
        input.required,
        input.minLength,
        input.maxLength,
        input.placeholder
      ])
    ).toEqual(["INPUT", "text", true, 3, 300, "Why we moved our team to a four-day week"])
    const help = await topic.getAttribute("aria-describedby")
    expect(await form.locator(`[id="${help}"]`).textContent()).toBe(
      "What the post is about, in a sentence. 3 to 300 characters."
    )
    expect(await form.locator('[data-field="topic"] .required').count()).toBe(1)
    expect(await form.locator('[data-field="audience"] .required').count()).toBe(0)
    expect(await form.getByLabel("Readers").inputValue()).toBe("people who read our blog")
    // An enum is a select with its default chosen; an integer a number input with its bounds.
    const tone = form.getByLabel("Tone")
    expect(
      await tone.evaluate((select: HTMLSelectElement) => [...select.options].map((option) => option.textContent))
    ).toEqual(["(none)", "friendly", "expert", "playful", "plain"])
    expect(await tone.evaluate((select: HTMLSelectElement) => select.selectedOptions[0].textContent)).toBe("friendly")
    const length = form.getByLabel("Length in words")
    expect(
      await length.evaluate((input: HTMLInputElement) => [input.type, input.min, input.max, input.step, input.value])
    ).toEqual(["number", "400", "4000", "1", "1100"])
    // x-advanced: folded under Advanced until it is opened.
    const keywords = form.getByLabel("Keywords")
    expect(await keywords.isVisible()).toBe(false)
    await form.getByText("Advanced", { exact: true }).click()
    await keywords.waitFor()
    // x-showWhen: the call to action shows only while its checkbox is checked.
    const callToAction = form.getByLabel("Call to action", { exact: true })
    expect(await callToAction.isVisible()).toBe(false)
    await form.getByLabel("End with a call to action").check()
    await callToAction.waitFor()
    await form.getByLabel("End with a call to action").uncheck()
    await callToAction.waitFor({ state: "hidden" })

    // The browser checks the schema's limits before anything is sent.
    let sent = 0
    const count = (request: Request) => void (isProjectStart(request) && sent++)
    studio.page.on("request", count)
    await length.fill("50")
    await topic.fill("Tea")
    await form.getByRole("button", { name: "Start the run" }).click()
    expect(await length.evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true)
    await topic.fill("")
    await length.fill("900")
    await form.getByRole("button", { name: "Start the run" }).click()
    expect(await topic.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true)
    studio.page.off("request", count)
    expect(sent).toBe(0)
    expect(new URL(studio.page.url()).search).toBe("?generator=blog-post")

    await studio.page.getByRole("link", { name: "← All generators" }).click()
    await studio.page.getByRole("heading", { name: "Generators" }).waitFor()
    expect(studio.breakage).toEqual([])
  })

  test("a form's harder cases: Advanced opens for a field that stops the submit, numbers travel as numbers, the node's refusal is in words", async () => {
    const created = await studio.page.context().request.post(`${studio.node.url}/api/studio/generators`, {
      data: {
        name: "Label maker",
        description: "Makes a label.",
        isPublic: false,
        inputsSchema: {
          type: "object",
          required: ["code", "secret"],
          properties: {
            code: { type: "string", title: "Code", description: "Three capital letters.", pattern: "^[A-Z]{3}$" },
            size: { type: "number", title: "Size", enum: [1, 2.5, 4], default: 2.5 },
            ratio: { type: "number", title: "Ratio", minimum: 0, maximum: 1 },
            tags: { type: "array", title: "Tags", items: { type: "string" } },
            secret: { type: "string", title: "Secret word", minLength: 2, "x-advanced": true }
          }
        },
        outputKinds: ["markdown"],
        steps: [
          {
            id: "label",
            title: "Make the label",
            role: "writer",
            skills: ["files.write"],
            instruction: "Make a label for {{inputs.code}}."
          }
        ]
      }
    })
    expect(created.status()).toBe(200)
    const { slug } = (await created.json()) as { slug: string }
    await studio.page.goto(`${studio.node.url}/studio?generator=${slug}`)
    const form = studio.page.locator("schema-form")
    await form.getByLabel("Code").fill("abc")
    // A list is named, not dropped in silence.
    await form.getByText("“Tags” takes a list, which this form cannot fill in; it is left out.").waitFor()
    expect(await form.getByLabel("Ratio").getAttribute("step")).toBe("any")

    // The required field under the closed Advanced area stops the submit and opens the area.
    const advanced = form.locator("details.advanced")
    expect(await advanced.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false)
    await form.getByRole("button", { name: "Start the run" }).click()
    await expect.poll(() => advanced.evaluate((details: HTMLDetailsElement) => details.open)).toBe(true)
    await form.getByLabel("Secret word").fill("xy")
    await form.getByLabel("Ratio").fill("0.5")

    // The browser cannot check a pattern; the node does, and says why in its words.
    const refused = studio.page.waitForResponse(isCall("POST", "/api/studio/projects"))
    await form.getByRole("button", { name: "Start the run" }).click()
    const refusal = await refused
    expect(refusal.request().postDataJSON()).toEqual({
      generatorId: expect.any(String),
      inputs: { code: "abc", size: 2.5, ratio: 0.5, secret: "xy" }
    })
    expect(refusal.status()).toBe(400)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.error).toBe("invalid_inputs")
    await studio.page.locator("studio-generator").getByRole("alert").filter({ hasText: body.message }).waitFor()
    expect(body.message).toContain("/code")
    expect(new URL(studio.page.url()).pathname).toBe("/studio")
    expect(studio.breakage).toEqual([])
  })
})
