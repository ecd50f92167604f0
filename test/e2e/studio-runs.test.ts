/**
 * The studio's runs in the browser, against a node whose models are the scripted OpenAI server,
 * the owner registered and logged in: a seeded generator's run started from its form is followed
 * live to done (the state, the plan, the trace, the QA verdict and the outputs with their
 * previews); a brief starts a planned run whose open steps are listed in Work, and which is
 * cancelled and resumed from its page; a tab that lost trace events on its socket shows them after
 * it reconnects. Tests hold the agents or the reviewer at a gate to look at a run under way.
 */
import { beforeAll, describe, expect, test } from "vitest"
import { focused, logIn, rail, registerThroughApi, watchForBreakage } from "./flows.ts"
import { verdict } from "./scripted-team.ts"
import { studioSession } from "./studio-support.ts"
import { isCall, owner } from "./flows.ts"

describe("the studio", () => {
  const studio = studioSession()

  // Registering is the gallery's file's first test (studio-forms.test.ts); here the owner logs in.
  beforeAll(async () => {
    await registerThroughApi(studio.node.url, owner, studio.node.ownerCode)
    await logIn(studio.page, studio.node.url, owner)
  })

  test("a seeded generator's run, started from its form, is followed live to done with its outputs, review and trace", async () => {
    await studio.page.goto(`${studio.node.url}/studio`)
    const card = studio.gallery(studio.page).locator('li[data-slug="meeting-summary"]')
    await card.getByRole("link", { name: "Meeting summary" }).click()
    const form = studio.page.locator("schema-form")
    await form.getByLabel("Meeting").waitFor()
    // The plan a run follows, with the research step the run adds before the generator's two.
    expect(await studio.page.locator("studio-generator .plan").textContent()).toBe(
      "3 steps (researcher, analyst, writer)"
    )

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
    studio.gates.agents.close()
    studio.gates.reviewer.close()
    const starting = studio.page.waitForResponse(isCall("POST", "/api/studio/projects"))
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
    await studio.page.waitForURL(`${studio.node.url}/studio/${project.id}`)
    await studio.page.getByRole("heading", { name: "Meeting summary", level: 1 }).waitFor()
    await studio.page.locator('node-rail .live[data-state="live"]').waitFor()

    // The plan arrives and the steps work, live.
    const plan = studio.page.locator("project-plan")
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
    await studio.statusOf("running").waitFor()
    expect(await studio.page.locator("project-place .status").getAttribute("role")).toBe("status")
    await plan.locator('li.step[data-state="running"]').first().waitFor()
    await studio.page
      .locator("project-outputs")
      .getByText("The files appear here when the run has finished its steps.")
      .waitFor()
    expect(await studio.page.locator("project-place").getByRole("button", { name: "Cancel the run" }).count()).toBe(1)

    studio.gates.agents.open()
    await plan.locator('li.step[data-state="done"]').nth(2).waitFor()
    expect(await plan.locator("li.step").first().innerText()).toContain("Saved research.md")
    expect(await plan.locator("li.step").nth(1).innerText()).toContain("Saved actions.csv")
    await studio.statusOf("review").waitFor()
    await studio.page.locator("project-place .review").getByText("The reviewer is reading the work.").waitFor()
    const trace = studio.page.locator("project-trace")
    await trace.locator('li.event[data-kind="output"]').filter({ hasText: "output files" }).waitFor()
    expect(await trace.locator('li.event[data-kind="done"]').count()).toBe(0)

    studio.gates.reviewer.open()
    await studio.statusOf("done").waitFor()
    await trace.locator('li.event[data-kind="done"]').filter({ hasText: "The project is done." }).waitFor()
    expect(
      await studio.page
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
    const review = studio.page.locator('project-place .review[data-verdict="pass-with-notes"]')
    await review.waitFor()
    expect(await review.locator(".badge").textContent()).toBe("Pass with notes")
    expect(await review.locator(".notes").textContent()).toBe(verdict.notes)

    // The outputs, each downloadable; markdown is previewed as a document, sanitised.
    const outputs = studio.page.locator("project-outputs")
    expect(
      await outputs.locator("li.output").evaluateAll((items) => items.map((item) => item.getAttribute("data-path")))
    ).toEqual(["actions.csv", "research.md", "summary.md"])
    const summary = outputs.locator('li.output[data-path="summary.md"]')
    expect(await summary.getByRole("link", { name: "Download summary.md" }).getAttribute("href")).toBe(
      `/api/files/project/${project.id}/summary.md`
    )
    const fetched = studio.page.waitForResponse(isCall("GET", `/api/files/project/${project.id}/summary.md`))
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
    await rail(studio.page).getByRole("link", { name: "Studio" }).click()
    const done = studio.page.locator('studio-portfolio section[data-group="done"]')
    await done.locator(`li[data-project-id="${project.id}"]`).waitFor()
    expect(await done.locator(`li[data-project-id="${project.id}"]`).innerText()).toMatch(
      /Meeting summary: Weekly product sync\s+Done\s+3 of 3 steps done/
    )
    expect(await studio.gallery(studio.page).locator('li[data-slug="meeting-summary"] .runs').textContent()).toBe(
      "Run once"
    )
    await done.getByRole("link", { name: "Meeting summary" }).click()
    await studio.statusOf("done").waitFor()
    // The title, drawn once the project loaded, has the keyboard.
    await expect.poll(() => focused(studio.page)).toEqual({ tag: "h1", text: "Meeting summary: Weekly product sync" })

    // The inputs under the form's labels, in its order; a checkbox in words.
    const asked = studio.page.locator("project-place .inputs")
    await expect
      .poll(() => asked.locator("dt").allTextContents())
      .toEqual(["Meeting", "Notes or transcript", "Attendees", "Give unowned actions a default owner", "Default owner"])
    expect(await asked.locator('[data-input="assignUnowned"] dd').textContent()).toBe("Yes")

    // At phone width nothing runs off the side of the page.
    await studio.page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => studio.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await studio.page.setViewportSize({ width: 1280, height: 720 })

    // Run it again: the generator's form, named by its slug, filled with this run's inputs.
    await studio.page.locator("project-place").getByRole("link", { name: "run it again" }).click()
    await studio.page.waitForURL(`${studio.node.url}/studio?generator=meeting-summary&from=${project.id}`)
    const again = studio.page.locator("schema-form")
    await expect.poll(() => again.getByLabel("Meeting").inputValue()).toBe("Weekly product sync")
    expect(await again.getByLabel("Notes or transcript").inputValue()).toContain("Nobody owns the budget question")
    expect(await again.getByLabel("Attendees").inputValue()).toBe("Ana, Ben")
    expect(await again.getByLabel("Give unowned actions a default owner").isChecked()).toBe(true)
    expect(await again.getByLabel("Default owner", { exact: true }).inputValue()).toBe("Chloé")
    expect(studio.breakage).toEqual([])
  })

  test("a brief starts a planned run; Work lists its open steps; it is cancelled and resumed from its page", async () => {
    await studio.page.goto(`${studio.node.url}/studio`)
    studio.gates.agents.close()
    const brief = studio.page.locator("studio-brief")
    await brief.getByRole("textbox", { name: "Brief" }).fill("Write a short note on green tea for a curious reader")
    const starting = studio.page.waitForResponse(isCall("POST", "/api/studio/projects"))
    await brief.getByRole("button", { name: "Start from the brief" }).click()
    const started = await starting
    expect(started.status()).toBe(200)
    expect(started.request().postDataJSON()).toEqual({ brief: "Write a short note on green tea for a curious reader" })
    const project = (await started.json()) as { id: string; title: string }
    await studio.page.waitForURL(`${studio.node.url}/studio/${project.id}`)
    await studio.page
      .locator("project-place .brief")
      .getByText("Write a short note on green tea for a curious reader")
      .waitFor()

    // The plan repair puts a research step before the planner's one.
    const plan = studio.page.locator("project-plan")
    await plan.locator('li.step[data-state="running"]').waitFor()
    const titles = await plan.locator("li.step .title").allTextContents()
    expect(titles).toHaveLength(2)
    expect(titles[1]).toBe("Write the note on green tea")
    expect(await plan.locator("li.step").nth(1).locator(".waits").innerText()).toBe(`Waits on: ${titles[0]}`)

    // Work: every open step of the person's projects, with a link to its project.
    await rail(studio.page).getByRole("link", { name: "Work" }).click()
    await studio.page.getByRole("heading", { name: "Open steps" }).waitFor()
    const rows = studio.page.locator("work-place li.step")
    await expect.poll(() => rows.count()).toBe(2)
    expect(await rows.locator(".title").allTextContents()).toEqual(titles)
    expect(await rows.first().getAttribute("data-state")).toBe("running")
    await rows.nth(1).getByRole("link", { name: project.title }).click()
    await studio.page.waitForURL(`${studio.node.url}/studio/${project.id}`)
    await studio.statusOf("running").waitFor()

    const cancelling = studio.page.waitForResponse(isCall("POST", `/api/studio/projects/${project.id}/cancel`))
    await studio.page.getByRole("button", { name: "Cancel the run" }).click()
    expect((await cancelling).status()).toBe(200)
    await studio.statusOf("cancelled").waitFor()
    await studio.page
      .locator("project-place")
      .getByRole("status")
      .filter({ hasText: "The run is cancelled." })
      .waitFor()
    await plan.locator('li.step[data-state="cancelled"]').first().waitFor()

    // Nothing is open any more.
    await rail(studio.page).getByRole("link", { name: "Work" }).click()
    await studio.page.locator("work-place").getByText("Nothing is open.").waitFor()
    await studio.page.goBack()
    await studio.statusOf("cancelled").waitFor()

    studio.gates.agents.open()
    const resuming = studio.page.waitForResponse(isCall("POST", `/api/studio/projects/${project.id}/resume`))
    await studio.page.getByRole("button", { name: "Resume the run" }).click()
    expect((await resuming).status()).toBe(200)
    await studio.statusOf("done").waitFor()
    await studio.page.locator('project-outputs li.output[data-path="note.md"]').waitFor()
    await studio.page.locator("project-trace li.event").filter({ hasText: "Resumed (run 2)" }).waitFor()
    expect(studio.breakage).toEqual([])
  })

  test("a tab whose socket lost the trace shows it all once it has reconnected", async () => {
    const context = studio.page.context()
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
    await tab.goto(`${studio.node.url}/studio`)
    await tab.locator('node-rail .live[data-state="live"]').waitFor()

    // Started from the other tab (the API, as another device would).
    studio.gates.agents.close()
    const response = await context.request.post(`${studio.node.url}/api/studio/projects`, {
      data: { brief: "Write a second note on green tea" }
    })
    expect(response.status()).toBe(200)
    const project = (await response.json()) as { id: string }
    await tab.locator(`studio-portfolio li[data-project-id="${project.id}"]`).waitFor()
    await tab.locator(`studio-portfolio li[data-project-id="${project.id}"] a`).click()
    await tab.locator('project-plan li.step[data-state="running"]').waitFor()
    studio.gates.agents.open()
    await tab.locator('project-place .status[data-status="done"]').waitFor()
    // The project's state came live, the trace events did not: the page shows what it loaded.
    const missing = tab.locator('project-trace li.event[data-kind="done"]')
    expect(await missing.count()).toBe(0)

    dropTrace = false
    closeSocket()
    await tab.locator('node-rail .live[data-state="reconnecting"]').waitFor()
    await tab.locator('node-rail .live[data-state="live"]').waitFor({ timeout: 10_000 })
    await missing.filter({ hasText: "The project is done." }).waitFor()
    const api = await context.request.get(`${studio.node.url}/api/studio/projects/${project.id}/trace`)
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
