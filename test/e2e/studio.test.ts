/**
 * The studio in the browser, against a node whose models are the scripted OpenAI server: the
 * owner registers, opens the Studio from the rail, picks a seeded generator, fills the form drawn
 * from its JSON Schema (a textarea, the Advanced area, a field shown by a checkbox, the browser's
 * own checks) and starts a run; the project's page then follows it live to done: the state, the
 * plan, the trace, the QA verdict and the outputs with their previews. A brief starts a planned
 * run whose open steps are listed in Work, and which is cancelled and resumed from its page. A
 * tab that lost trace events on its socket shows them after it reconnects.
 *
 * The scripted team (scripted-team.ts) answers what the pipeline asks; tests hold the agents or
 * the reviewer at a gate to look at a run while it is under way.
 */
import type { Browser, Page, Request, Response } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { focused, type Person, rail, submitRegistration, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { Gate, scriptTeam, verdict } from "./scripted-team.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path

const isProjectStart = (request: Request) =>
  request.method() === "POST" && new URL(request.url()).pathname === "/api/studio/projects"

describe("the studio", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let page: Page
  let breakage: ReadonlyArray<string>
  const gates = { agents: new Gate(), reviewer: new Gate() }

  beforeAll(async () => {
    models = await startOpenAiServer()
    scriptTeam(models, gates)
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
    page = await (await browser.newContext()).newPage()
    breakage = watchForBreakage(page)
  })

  // A test that fails with a gate closed must not hold up the next one.
  afterEach(() => {
    gates.agents.open()
    gates.reviewer.open()
  })

  afterAll(async () => {
    gates.agents.open()
    gates.reviewer.open()
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  const statusOf = (status: string) => page.locator(`project-place .status[data-status="${status}"]`)

  const gallery = (current: Page) => current.locator("studio-gallery")

  test("the owner registers; the gallery shows each generator, and a generator's form is drawn from its JSON Schema", async () => {
    await page.goto(`${node.url}/register?code=${encodeURIComponent(node.ownerCode)}`)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(node.ownerCode)
    await submitRegistration(page, owner)
    await waitForDesktop(page, owner)

    await rail(page).getByRole("link", { name: "Studio" }).click()
    await page.getByRole("heading", { name: "Generators" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/studio")
    expect(await rail(page).getByRole("link", { name: "Studio" }).getAttribute("aria-current")).toBe("page")
    expect(await rail(page).getByRole("link", { name: "Work" }).count()).toBe(1)

    const blog = gallery(page).locator('li[data-slug="blog-post"]')
    await blog.waitFor()
    expect(await blog.locator("h3").textContent()).toBe("Blog post")
    // The generator's emoji is drawn as an SVG icon: no emoji font needed.
    expect(await blog.locator(".picture svg path").count()).toBe(1)
    expect(await blog.locator(".picture").textContent()).toBe("")
    expect(await blog.locator(".description").textContent()).toMatch(/^A researched, outlined and edited blog post/)
    expect(await blog.locator(".meta").innerText()).toMatch(/Makes: Markdown\s+Not run yet/)
    expect(await gallery(page).locator("li.generator").count()).toBeGreaterThanOrEqual(6)

    await blog.getByRole("link", { name: "Blog post" }).click()
    await page.getByRole("heading", { name: "Blog post", level: 1 }).waitFor()
    expect(new URL(page.url()).search).toBe("?generator=blog-post")
    // The keyboard is on the generator's heading, where the form begins.
    expect(
      await page.evaluate(() => {
        let active = document.activeElement
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
        return active?.textContent?.trim()
      })
    ).toBe("Blog post")

    const form = page.locator("schema-form")
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
    page.on("request", count)
    await length.fill("50")
    await topic.fill("Tea")
    await form.getByRole("button", { name: "Start the run" }).click()
    expect(await length.evaluate((input: HTMLInputElement) => input.validity.rangeUnderflow)).toBe(true)
    await topic.fill("")
    await length.fill("900")
    await form.getByRole("button", { name: "Start the run" }).click()
    expect(await topic.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true)
    page.off("request", count)
    expect(sent).toBe(0)
    expect(new URL(page.url()).search).toBe("?generator=blog-post")

    await page.getByRole("link", { name: "← All generators" }).click()
    await page.getByRole("heading", { name: "Generators" }).waitFor()
    expect(breakage).toEqual([])
  })

  test("a form's harder cases: Advanced opens for a field that stops the submit, numbers travel as numbers, the node's refusal is in words", async () => {
    const created = await page.context().request.post(`${node.url}/api/studio/generators`, {
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
    await page.goto(`${node.url}/studio?generator=${slug}`)
    const form = page.locator("schema-form")
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
    const refused = page.waitForResponse(isCall("POST", "/api/studio/projects"))
    await form.getByRole("button", { name: "Start the run" }).click()
    const refusal = await refused
    expect(refusal.request().postDataJSON()).toEqual({
      generatorId: expect.any(String),
      inputs: { code: "abc", size: 2.5, ratio: 0.5, secret: "xy" }
    })
    expect(refusal.status()).toBe(400)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.error).toBe("invalid_inputs")
    await page.locator("studio-generator").getByRole("alert").filter({ hasText: body.message }).waitFor()
    expect(body.message).toContain("/code")
    expect(new URL(page.url()).pathname).toBe("/studio")
    expect(breakage).toEqual([])
  })

  test("a seeded generator's run, started from its form, is followed live to done with its outputs, review and trace", async () => {
    await page.goto(`${node.url}/studio`)
    const card = gallery(page).locator('li[data-slug="meeting-summary"]')
    await card.getByRole("link", { name: "Meeting summary" }).click()
    const form = page.locator("schema-form")
    await form.getByLabel("Meeting").waitFor()
    // The plan a run follows, with the research step the run adds before the generator's two.
    expect(await page.locator("studio-generator .plan").textContent()).toBe("3 steps (researcher, analyst, writer)")

    // Required and empty: the browser stops it.
    const notes = form.getByLabel("Notes or transcript")
    await form.getByRole("button", { name: "Start the run" }).click()
    expect(await notes.evaluate((textarea: HTMLTextAreaElement) => textarea.validity.valueMissing)).toBe(true)

    expect(await notes.evaluate((textarea: HTMLTextAreaElement) => [textarea.tagName, textarea.placeholder])).toEqual([
      "TEXTAREA",
      "Paste what was said or written down"
    ])
    await form.getByLabel("Meeting").fill("Weekly product sync")
    await notes.fill(
      "Ana: the beta ships on the first of July.\nBen: I will write the changelog.\nNobody owns the budget question yet."
    )
    await form.getByLabel("Attendees").fill("Ana, Ben")
    await form.getByText("Advanced", { exact: true }).click()
    const defaultOwner = form.getByLabel("Default owner", { exact: true })
    expect(await defaultOwner.isVisible()).toBe(false)
    await form.getByLabel("Give unowned actions a default owner").check()
    await defaultOwner.fill("Chloé")

    // The agents wait until the page is open, so it sees the run from its start.
    gates.agents.close()
    gates.reviewer.close()
    const starting = page.waitForResponse(isCall("POST", "/api/studio/projects"))
    await form.getByRole("button", { name: "Start the run" }).click()
    const started = await starting
    expect(started.status()).toBe(200)
    expect(started.request().postDataJSON()).toMatchObject({
      generatorId: expect.any(String),
      inputs: {
        meetingTitle: "Weekly product sync",
        notes: expect.stringContaining("Nobody owns the budget question"),
        attendees: "Ana, Ben",
        assignUnowned: true,
        defaultOwner: "Chloé"
      }
    })
    const project = (await started.json()) as { id: string; status: string }
    expect(project.status).toBe("planning")
    await page.waitForURL(`${node.url}/studio/${project.id}`)
    await page.getByRole("heading", { name: "Meeting summary", level: 1 }).waitFor()
    await page.locator('node-rail .live[data-state="live"]').waitFor()

    // The plan arrives and the steps work, live.
    const plan = page.locator("project-plan")
    await plan.locator("li.step").nth(2).waitFor()
    // The plan repair guarantees a research step, first; the generator's steps wait for it.
    expect(await plan.locator("li.step .title").allTextContents()).toEqual([
      "Research the brief",
      "List the action items of Weekly product sync",
      "Summarise Weekly product sync"
    ])
    const waitsOn = (row: number) => plan.locator("li.step").nth(row).locator(".waits").innerText()
    expect(await waitsOn(0)).toBe("Waits on: nothing")
    expect(await waitsOn(1)).toBe("Waits on: Research the brief")
    // The summary reads the action items through its template, so it waits on them.
    expect(await waitsOn(2)).toBe("Waits on: List the action items of Weekly product sync")
    await statusOf("running").waitFor()
    expect(await page.locator("project-place .status").getAttribute("role")).toBe("status")
    await plan.locator('li.step[data-state="running"]').first().waitFor()
    await page
      .locator("project-outputs")
      .getByText("The files appear here when the run has finished its steps.")
      .waitFor()
    expect(await page.locator("project-place").getByRole("button", { name: "Cancel the run" }).count()).toBe(1)

    gates.agents.open()
    await plan.locator('li.step[data-state="done"]').nth(2).waitFor()
    expect(await plan.locator("li.step").first().innerText()).toContain("Saved research.md")
    expect(await plan.locator("li.step").nth(1).innerText()).toContain("Saved actions.csv")
    await statusOf("review").waitFor()
    await page.locator("project-place .review").getByText("The reviewer is reading the work.").waitFor()
    const trace = page.locator("project-trace")
    await trace.locator('li.event[data-kind="output"]').filter({ hasText: "output files" }).waitFor()
    expect(await trace.locator('li.event[data-kind="done"]').count()).toBe(0)

    gates.reviewer.open()
    await statusOf("done").waitFor()
    await trace.locator('li.event[data-kind="done"]').filter({ hasText: "The project is done." }).waitFor()
    expect(
      await page
        .locator("project-place")
        .getByRole("button", { name: /Cancel the run|Resume the run/ })
        .count()
    ).toBe(0)

    // The trace holds the plan, the tool calls and their results, the messages and the review.
    const kinds = new Set(
      await trace.locator("li.event").evaluateAll((items) => items.map((item) => item.getAttribute("data-kind")))
    )
    expect([...kinds]).toEqual(
      expect.arrayContaining(["plan", "tool.call", "tool.result", "message", "output", "done"])
    )
    await trace.locator('li.event[data-kind="tool.call"]').filter({ hasText: "calls files.write" }).first().waitFor()
    expect(await trace.locator("h2 .count").textContent()).toMatch(/^\(\d+ events\)$/)

    // The QA verdict and its notes.
    const review = page.locator('project-place .review[data-verdict="pass-with-notes"]')
    await review.waitFor()
    expect(await review.locator(".badge").textContent()).toBe("Pass with notes")
    expect(await review.locator(".notes").textContent()).toBe(verdict.notes)

    // The outputs, each downloadable; markdown is previewed as a document, sanitised.
    const outputs = page.locator("project-outputs")
    expect(
      await outputs.locator("li.output").evaluateAll((items) => items.map((item) => item.getAttribute("data-path")))
    ).toEqual(["actions.csv", "research.md", "summary.md"])
    const summary = outputs.locator('li.output[data-path="summary.md"]')
    expect(await summary.getByRole("link", { name: "Download summary.md" }).getAttribute("href")).toBe(
      `/api/files/project/${project.id}/summary.md`
    )
    const fetched = page.waitForResponse(isCall("GET", `/api/files/project/${project.id}/summary.md`))
    await summary.getByText("Preview").click()
    expect((await fetched).status()).toBe(200)
    const preview = summary.locator("output-preview .markdown")
    await preview.waitFor()
    // Its headings sit under the page's outline (# is h4, ## is h5), and no markup marks show.
    await preview.getByRole("heading", { name: "Summarise Weekly product sync", level: 4 }).waitFor()
    await preview.getByRole("heading", { name: "Decisions", level: 5 }).waitFor()
    expect(await preview.textContent()).not.toContain("##")
    expect(await summary.locator("output-preview h1, output-preview h2, output-preview h3").count()).toBe(0)
    // A link to a source opens outside the app, in a new tab.
    expect(await preview.locator('a[href^="https://example.org/"]').first().getAttribute("rel")).toBe(
      "noopener noreferrer"
    )
    // Other text is shown as it is: the CSV's preview is its text.
    const csv = outputs.locator('li.output[data-path="actions.csv"]')
    await csv.getByText("Preview").click()
    expect(await csv.locator("pre.file").textContent()).toContain("action,owner,due")

    // Steps are done; the portfolio lists the project as done, and the gallery counts the run.
    expect(await plan.locator('li.step[data-state="done"]').count()).toBe(3)
    // Each step names the team member wearing its role.
    expect(await plan.locator("li.step").nth(1).locator(".role").innerText()).toMatch(/^analyst · .*\w/)
    expect(await plan.locator(".team li").count()).toBe(3)
    await rail(page).getByRole("link", { name: "Studio" }).click()
    const done = page.locator('studio-portfolio section[data-group="done"]')
    await done.locator(`li[data-project-id="${project.id}"]`).waitFor()
    expect(await done.locator(`li[data-project-id="${project.id}"]`).innerText()).toMatch(
      /Meeting summary: Weekly product sync\s+Done\s+3 of 3 steps done/
    )
    expect(await gallery(page).locator('li[data-slug="meeting-summary"] .runs').textContent()).toBe("Run once")
    await done.getByRole("link", { name: "Meeting summary" }).click()
    await statusOf("done").waitFor()
    // The title, drawn once the project loaded, has the keyboard.
    await expect.poll(() => focused(page)).toEqual({ tag: "h1", text: "Meeting summary: Weekly product sync" })

    // The inputs under the form's labels, in its order; a checkbox in words.
    const asked = page.locator("project-place .inputs")
    await expect
      .poll(() => asked.locator("dt").allTextContents())
      .toEqual(["Meeting", "Notes or transcript", "Attendees", "Give unowned actions a default owner", "Default owner"])
    expect(await asked.locator('[data-input="assignUnowned"] dd').textContent()).toBe("Yes")

    // At phone width nothing runs off the side of the page.
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.setViewportSize({ width: 1280, height: 720 })

    // Run it again: the generator's form, named by its slug, filled with this run's inputs.
    await page.locator("project-place").getByRole("link", { name: "run it again" }).click()
    await page.waitForURL(`${node.url}/studio?generator=meeting-summary&from=${project.id}`)
    const again = page.locator("schema-form")
    await expect.poll(() => again.getByLabel("Meeting").inputValue()).toBe("Weekly product sync")
    expect(await again.getByLabel("Notes or transcript").inputValue()).toContain("Nobody owns the budget question")
    expect(await again.getByLabel("Attendees").inputValue()).toBe("Ana, Ben")
    expect(await again.getByLabel("Give unowned actions a default owner").isChecked()).toBe(true)
    expect(await again.getByLabel("Default owner", { exact: true }).inputValue()).toBe("Chloé")
    expect(breakage).toEqual([])
  })

  test("a brief starts a planned run; Work lists its open steps; it is cancelled and resumed from its page", async () => {
    await page.goto(`${node.url}/studio`)
    gates.agents.close()
    const brief = page.locator("studio-brief")
    await brief.getByRole("textbox", { name: "Brief" }).fill("Write a short note on green tea for a curious reader")
    const starting = page.waitForResponse(isCall("POST", "/api/studio/projects"))
    await brief.getByRole("button", { name: "Start from the brief" }).click()
    const started = await starting
    expect(started.status()).toBe(200)
    expect(started.request().postDataJSON()).toEqual({ brief: "Write a short note on green tea for a curious reader" })
    const project = (await started.json()) as { id: string; title: string }
    await page.waitForURL(`${node.url}/studio/${project.id}`)
    await page
      .locator("project-place .brief")
      .getByText("Write a short note on green tea for a curious reader")
      .waitFor()

    // The plan repair puts a research step before the planner's one.
    const plan = page.locator("project-plan")
    await plan.locator('li.step[data-state="running"]').waitFor()
    const titles = await plan.locator("li.step .title").allTextContents()
    expect(titles).toHaveLength(2)
    expect(titles[1]).toBe("Write the note on green tea")
    expect(await plan.locator("li.step").nth(1).locator(".waits").innerText()).toBe(`Waits on: ${titles[0]}`)

    // Work: every open step of the person's projects, with a link to its project.
    await rail(page).getByRole("link", { name: "Work" }).click()
    await page.getByRole("heading", { name: "Open steps" }).waitFor()
    const rows = page.locator("work-place li.step")
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.locator(".title").allTextContents()).toEqual(titles)
    expect(await rows.first().getAttribute("data-state")).toBe("running")
    await rows.nth(1).getByRole("link", { name: project.title }).click()
    await page.waitForURL(`${node.url}/studio/${project.id}`)
    await statusOf("running").waitFor()

    const cancelling = page.waitForResponse(isCall("POST", `/api/studio/projects/${project.id}/cancel`))
    await page.getByRole("button", { name: "Cancel the run" }).click()
    expect((await cancelling).status()).toBe(200)
    await statusOf("cancelled").waitFor()
    await page.locator("project-place").getByRole("status").filter({ hasText: "The run is cancelled." }).waitFor()
    await plan.locator('li.step[data-state="cancelled"]').first().waitFor()

    // Nothing is open any more.
    await rail(page).getByRole("link", { name: "Work" }).click()
    await page.locator("work-place").getByText("Nothing is open.").waitFor()
    await page.goBack()
    await statusOf("cancelled").waitFor()

    gates.agents.open()
    const resuming = page.waitForResponse(isCall("POST", `/api/studio/projects/${project.id}/resume`))
    await page.getByRole("button", { name: "Resume the run" }).click()
    expect((await resuming).status()).toBe(200)
    await statusOf("done").waitFor()
    await page.locator('project-outputs li.output[data-path="note.md"]').waitFor()
    await page.locator("project-trace li.event").filter({ hasText: "Resumed (run 2)" }).waitFor()
    expect(breakage).toEqual([])
  })

  test("a tab whose socket lost the trace shows it all once it has reconnected", async () => {
    const context = page.context()
    const tab = await context.newPage()
    const tabBreakage = watchForBreakage(tab)
    let dropTrace = true
    let closeSocket: () => void = () => undefined
    await tab.routeWebSocket(
      (url) => url.pathname === "/api/ws",
      (socket) => {
        const server = socket.connectToServer()
        server.onMessage((message) => {
          if (dropTrace && typeof message === "string" && (JSON.parse(message) as { type: string }).type === "trace")
            return
          socket.send(message)
        })
        closeSocket = () => socket.close({ code: 1011, reason: "dropped by the test" })
      }
    )
    await tab.goto(`${node.url}/studio`)
    await tab.locator('node-rail .live[data-state="live"]').waitFor()

    // Started from the other tab (the API, as another device would).
    gates.agents.close()
    const response = await context.request.post(`${node.url}/api/studio/projects`, {
      data: { brief: "Write a second note on green tea" }
    })
    expect(response.status()).toBe(200)
    const project = (await response.json()) as { id: string }
    await tab.locator(`studio-portfolio li[data-project-id="${project.id}"]`).waitFor()
    await tab.locator(`studio-portfolio li[data-project-id="${project.id}"] a`).click()
    await tab.locator('project-plan li.step[data-state="running"]').waitFor()
    gates.agents.open()
    await tab.locator('project-place .status[data-status="done"]').waitFor()
    // The project's state came live, the trace events did not: the page shows what it loaded.
    const missing = tab.locator('project-trace li.event[data-kind="done"]')
    expect(await missing.count()).toBe(0)

    dropTrace = false
    closeSocket()
    await tab.locator('node-rail .live[data-state="reconnecting"]').waitFor()
    await tab.locator('node-rail .live[data-state="live"]').waitFor({ timeout: 10_000 })
    await missing.filter({ hasText: "The project is done." }).waitFor()
    const api = await context.request.get(`${node.url}/api/studio/projects/${project.id}/trace`)
    const events = (await api.json()) as ReadonlyArray<{ id: string }>
    expect(
      await tab
        .locator("project-trace li.event")
        .evaluateAll((items) => items.map((item) => item.getAttribute("data-event-id")))
    ).toEqual(events.map((event) => event.id))
    expect(tabBreakage).toEqual([])
    await tab.close()
  })
})
