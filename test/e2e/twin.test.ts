/**
 * The twin's place in the browser, as its owner uses it: a memory learned through the scripted
 * model is found by typing, deleted after a confirmation and gone; the profile and the hush
 * settings and the "Learns from" switches (at desktop and phone width) stay after a reload; to-dos are added,
 * completed, deferred (the count shows) and
 * dropped; an event shows in the day and the week; activity arrives live; a nudge the quiet
 * hours hold is listed in "What did I miss" with its "why"; and the desktop counts it, links to
 * it, and takes a widget the twin suggests into its layout (or dismisses it).
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import { launchBrowser } from "./browser.ts"
import { rail, registerThroughApi, viewports, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { owner } from "./flows.ts"

/**
 * Embeddings by words (each word hashed to one of 256 dimensions): texts that share no word are
 * unlike, so two different memories are not taken for near-duplicates and a search finds what
 * shares its words. (The scripted server's own vectors make every text alike.)
 */
const wordVector = (text: string): Array<number> => {
  const vector = new Array<number>(256).fill(0)
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let hash = 0
    for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) >>> 0
    vector[hash % 256] += 1
  }
  const norm = Math.hypot(...vector)
  return norm === 0 ? vector.map((_, index) => (index === 0 ? 1 : 0)) : vector.map((value) => value / norm)
}

const inputsOf = (request: ReceivedRequest): Array<string> =>
  (Array.isArray(request.body.input) ? request.body.input : [request.body.input]).map(String)

/** The name of the structured answer a chat call asks for: `memories` (learning) or `reflection`. */
const schemaName = (request: ReceivedRequest): string => request.body.response_format?.json_schema?.name ?? ""

describe("the twin's place", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let context: BrowserContext
  /** What learning extracts next, and what reflection thinks next. */
  let learned: ReadonlyArray<{ content: string; kind: string }> = []
  let reflection: {
    thought: string
    insights: Array<{ title: string; body: string }>
    widgets: Array<{ widgetType: string; reason: string }>
  } = {
    thought: "You keep coming back to the garden.",
    insights: [],
    widgets: []
  }

  beforeAll(async () => {
    models = await startOpenAiServer()
    models.handle("chat", (request) =>
      schemaName(request) === "memories"
        ? { content: JSON.stringify({ memories: learned.map((memory) => ({ ...memory, importance: 0.7, tags: [] })) }) }
        : schemaName(request) === "reflection"
          ? { content: JSON.stringify(reflection) }
          : { content: "A scripted reply." }
    )
    models.handle("embeddings", (request) => ({ vectors: inputsOf(request).map(wordVector) }))
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    const [pair] = registered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")
    context = await browser.newContext({ timezoneId: "UTC", locale: "en-GB" })
    await context.addCookies([{ name: "svc_session", value: pair.slice("svc_session=".length), url: node.url }])
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  /** A tab on a section of /twin once the live channel is up. */
  const openTwin = async (section = ""): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${node.url}/twin${section === "" ? "" : `?section=${section}`}`)
    await page.getByRole("heading", { name: "Twin", level: 1 }).waitFor()
    await page.locator('node-rail .live[data-state="live"]').waitFor()
    return page
  }

  const learn = async (text: string, memories: ReadonlyArray<{ content: string; kind: string }>): Promise<void> => {
    learned = memories
    const response = await context.request.post(`${node.url}/api/twin/learn`, { data: { text, source: "journal" } })
    expect(response.status(), await response.text()).toBe(200)
  }

  test("the rail leads to the twin; a learned memory is found by typing and deleted after a confirmation; activity arrives live", async () => {
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)
    await rail(page).getByRole("link", { name: "Twin" }).click()
    await page.getByRole("heading", { name: "Twin", level: 1 }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/twin")
    await expect.poll(() => page.locator("twin-memories").getByText("Your twin remembers nothing yet.").count()).toBe(1)

    await learn("Ada called from Porto.", [
      { content: "My sister Ada lives in Porto", kind: "relationship" },
      { content: "I prefer tea to coffee in the afternoon", kind: "preference" }
    ])
    const search = page.getByRole("searchbox", { name: "Search memories" })
    await search.pressSequentially("Porto")
    const memories = page.locator("twin-memories li.memory")
    await expect
      .poll(() => memories.allTextContents())
      .toEqual([expect.stringContaining("My sister Ada lives in Porto")])
    const ada = memories.first()
    await expect.poll(() => ada.textContent()).toMatch(/relationship[\s\S]*Importance 70%[\s\S]*From journal/)

    // The kind filter: no preference mentions Porto.
    await page.getByRole("combobox", { name: /^Kind/ }).first().selectOption("preference")
    await page.locator("twin-memories").getByText("No memory matches.").waitFor()
    await page.getByRole("combobox", { name: /^Kind/ }).first().selectOption("")
    await ada.waitFor()

    // Cancel keeps it; confirming deletes it.
    await ada.getByRole("button", { name: /Delete the memory/ }).click()
    const dialog = page.getByRole("dialog", { name: "Delete this memory?" })
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "hidden" })
    await ada.waitFor()
    await ada.getByRole("button", { name: /Delete the memory/ }).click()
    await dialog.getByRole("button", { name: "Delete the memory" }).click()
    await page.locator("twin-memories").getByText("The memory is deleted.").waitFor()
    await page.locator("twin-memories").getByText("No memory matches.").waitFor()
    await search.fill("")
    await expect.poll(() => memories.allTextContents()).toEqual([expect.stringContaining("I prefer tea")])

    // Activity: what learning wrote, and a new activity on top as it happens.
    await page.getByRole("navigation", { name: "Twin sections" }).getByRole("link", { name: "Activity" }).click()
    const activity = page.locator("twin-activity li")
    await expect.poll(() => activity.first().textContent()).toMatch(/Learning[\s\S]*Learned 2 memories/)
    await page
      .locator("twin-status")
      .getByText(/of \d+ memor(y is|ies are) embedded/)
      .waitFor()
    await learn("The fig tree needs water.", [{ content: "The fig tree needs water every Sunday", kind: "fact" }])
    await expect.poll(() => activity.first().textContent(), { timeout: 2_000 }).toMatch(/Learned 1 memory/)
    expect(problems).toEqual([])
    await page.close()
  })

  test("the profile and its preferences stay after a reload", async () => {
    const page = await openTwin("profile")
    const profile = page.locator("twin-profile")
    await profile.getByLabel("Goals").fill("Run a half marathon\nLearn Portuguese")
    await profile.getByLabel("Tone").fill("Warm and brief")
    await profile.getByLabel("Time zone").fill("Europe/Lisbon")
    await profile.getByRole("button", { name: "Save the profile" }).click()
    await profile.getByText("The profile is saved.").waitFor()
    await profile.getByLabel("Name").fill("coffee")
    await profile.getByLabel("Value").fill("oat flat white")
    await profile.getByRole("button", { name: "Set the preference" }).click()
    await profile.getByText("The preference coffee is set.").waitFor()
    await profile.getByLabel("Name").fill("walks")
    await profile.getByLabel("Value").fill("3")
    await profile.getByRole("button", { name: "Set the preference" }).click()
    await profile.getByRole("button", { name: "Remove the preference walks" }).waitFor()

    await page.reload()
    await expect.poll(() => profile.getByLabel("Goals").inputValue()).toBe("Run a half marathon\nLearn Portuguese")
    expect(await profile.getByLabel("Tone").inputValue()).toBe("Warm and brief")
    expect(await profile.getByLabel("Time zone").inputValue()).toBe("Europe/Lisbon")
    await profile.getByRole("button", { name: "Remove the preference walks" }).click()
    await profile.getByText("The preference walks is removed.").waitFor()
    await page.reload()
    await profile.getByText("oat flat white", { exact: true }).waitFor()
    expect(await profile.getByRole("button", { name: "Remove the preference walks" }).count()).toBe(0)
    // Back to UTC, so the quiet hours below are the test's own clock's.
    const reset = await context.request.patch(`${node.url}/api/twin/profile`, { data: { timezone: "UTC" } })
    expect(reset.status()).toBe(200)
    await page.close()
  })

  test("to-dos: added quickly, completed, deferred (the count shows) and dropped", async () => {
    const page = await openTwin("todos")
    const todos = page.locator("twin-todos")
    for (const title of ["Call the plumber", "Water the fig tree", "Book the dentist"]) {
      await todos.getByLabel("New to-do").fill(title)
      await todos.getByRole("button", { name: "Add", exact: true }).click()
      await todos.getByText(`Added “${title}”.`).waitFor()
    }
    await todos.getByLabel("Due (optional)").fill("2031-03-04T09:30")
    await todos.getByLabel("New to-do").fill("Renew the passport")
    await todos.getByRole("button", { name: "Add", exact: true }).click()
    const passport = todos.locator("li.todo", { hasText: "Renew the passport" })
    await expect.poll(() => passport.textContent()).toMatch(/Due .*2031/)

    await todos.getByRole("button", { name: "Complete “Call the plumber”" }).click()
    await todos.getByText("“Call the plumber” is done.").waitFor()
    await todos.locator("li.todo", { hasText: "Call the plumber" }).waitFor({ state: "detached" })

    await todos.getByRole("button", { name: "Defer “Water the fig tree” by a day" }).click()
    const fig = todos.locator("li.todo", { hasText: "Water the fig tree" })
    await expect.poll(() => fig.textContent()).toMatch(/Deferred[\s\S]*Deferred once/)
    await todos.getByRole("button", { name: "Defer “Water the fig tree” by a day" }).click()
    await expect.poll(() => fig.textContent()).toMatch(/Deferred 2 times/)

    await todos.getByRole("button", { name: "Drop “Book the dentist”" }).click()
    await todos.locator("li.todo", { hasText: "Book the dentist" }).waitFor({ state: "detached" })

    await todos.getByLabel("Show").selectOption("done")
    await todos.locator("li.todo", { hasText: "Call the plumber" }).waitFor()
    await todos.getByLabel("Show").selectOption("dropped")
    await todos.locator("li.todo", { hasText: "Book the dentist" }).waitFor()
    expect(await todos.locator("li.todo").count()).toBe(1)
    await page.close()
  })

  test("an event shows in the day and in the week, repeats, and is deleted after a confirmation", async () => {
    const page = await openTwin("agenda")
    const agenda = page.locator("twin-agenda")
    const today = new Date().toISOString().slice(0, 10)
    await agenda.getByLabel("Title").fill("Dentist")
    await agenda.getByLabel("Starts", { exact: true }).fill(`${today}T00:30`)
    await agenda.getByLabel("Ends (optional)").fill(`${today}T01:15`)
    await agenda.getByRole("button", { name: "Add the event" }).click()
    await agenda.getByText("Added “Dentist”.").waitFor()
    await agenda.locator("li.entry", { hasText: "Dentist" }).waitFor()

    await agenda.getByRole("button", { name: "Day", exact: true }).click()
    await expect.poll(() => agenda.locator("#agenda-title").textContent()).not.toMatch(/Week of/)
    await expect
      .poll(() => agenda.locator("li.entry").allTextContents())
      .toEqual([expect.stringMatching(/00:30.*01:15[\s\S]*Dentist/)])
    await agenda.getByRole("button", { name: "Next day" }).click()
    await agenda.getByText("Nothing planned.").waitFor()
    await agenda.getByRole("button", { name: "Today" }).click()
    await agenda.locator("li.entry", { hasText: "Dentist" }).waitFor()

    // A daily stand-up: once in the day, every day from today in the week.
    await agenda.getByLabel("Title").fill("Stand-up")
    await agenda.getByLabel("Starts", { exact: true }).fill(`${today}T08:00`)
    await agenda.getByLabel("Repeats").selectOption({ label: "Every day" })
    await agenda.getByRole("button", { name: "Add the event" }).click()
    await agenda.getByText("Added “Stand-up”.").waitFor()
    await expect.poll(() => agenda.locator("li.entry", { hasText: "Stand-up" }).count()).toBe(1)
    await agenda.getByRole("button", { name: "Week", exact: true }).click()
    await agenda.getByRole("heading", { name: /Week of/ }).waitFor()
    const daysLeft = 7 - ((new Date().getUTCDay() + 6) % 7)
    await expect.poll(() => agenda.locator("li.entry", { hasText: "Stand-up" }).count()).toBe(daysLeft)
    await agenda.locator("li.entry", { hasText: "Dentist" }).waitFor()

    await agenda.getByRole("button", { name: "Delete the event “Stand-up”" }).first().click()
    await page
      .getByRole("dialog", { name: "Delete this event?" })
      .getByRole("button", { name: "Delete the event" })
      .click()
    await expect.poll(() => agenda.locator("li.entry", { hasText: "Stand-up" }).count()).toBe(0)
    await agenda.locator("li.entry", { hasText: "Dentist" }).waitFor()
    await page.close()
  })

  test("hush settings stay after a reload", async () => {
    const page = await openTwin("hush")
    const hush = page.locator("twin-hush")
    await hush.getByRole("combobox", { name: /^Nudges/ }).selectOption("fewer")
    await hush.getByLabel("From").fill("22:00")
    await hush.getByLabel("Until").fill("07:30")
    await hush.getByLabel("Nudges a day at most").fill("6")
    await hush.getByLabel("Snooze for hours").fill("2")
    await hush.getByRole("button", { name: "Save the hush settings" }).click()
    await hush.getByText("The hush settings are saved.").waitFor()
    await hush.getByText(/Snoozed until/).waitFor()

    await page.reload()
    await expect.poll(() => hush.getByRole("combobox", { name: /^Nudges/ }).inputValue()).toBe("fewer")
    expect(await hush.getByLabel("From").inputValue()).toBe("22:00")
    expect(await hush.getByLabel("Until").inputValue()).toBe("07:30")
    expect(await hush.getByLabel("Nudges a day at most").inputValue()).toBe("6")
    await hush.getByText(/Snoozed until/).waitFor()
    await hush.getByLabel("Snooze for hours").fill("0")
    await hush.getByRole("button", { name: "Save the hush settings" }).click()
    await hush.getByText("Not snoozed. Empty leaves it so.").waitFor()
    await page.close()
  })

  for (const [width, viewport] of viewports) {
    test(`the "Learns from" switches save at once and stay after a reload (${width})`, async () => {
      const page = await openTwin("activity")
      await page.setViewportSize(viewport)
      const problems = watchForBreakage(page)
      const card = page.locator("twin-learning")
      const source = width === "desktop" ? "Synced mail" : "Indexed files"
      const others = ["Your Muse threads", "The chat bridge", "Synced mail", "Indexed files"].filter(
        (name) => name !== source
      )
      const toggle = card.getByRole("switch", { name: source })
      await expect.poll(() => toggle.isChecked()).toBe(true)
      const saved = page.waitForResponse(
        (response) => response.url().endsWith("/api/twin/learning") && response.request().method() === "PUT"
      )
      await toggle.click()
      expect((await saved).status()).toBe(200)

      await page.reload()
      await card.getByText("Nothing waits to be learned.").waitFor()
      expect(await card.getByRole("switch", { name: source }).isChecked()).toBe(false)
      for (const other of others) expect(await card.getByRole("switch", { name: other }).isChecked(), other).toBe(true)

      const again = page.waitForResponse(
        (response) => response.url().endsWith("/api/twin/learning") && response.request().method() === "PUT"
      )
      await card.getByRole("switch", { name: source }).click()
      expect((await again).status()).toBe(200)
      await page.reload()
      await card.getByText("Nothing waits to be learned.").waitFor()
      expect(await card.getByRole("switch", { name: source }).isChecked()).toBe(true)
      expect(problems).toEqual([])
      await page.close()
    })
  }

  test("a nudge quiet hours hold: counted on the desktop, listed in what I missed with its why; a suggested widget joins the desktop", async () => {
    // Quiet hours around now (the profile's zone is UTC), all nudges, room under the cap.
    // One reading of the clock: two could straddle the hour.
    const now = new Date()
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes()
    const put = await context.request.put(`${node.url}/api/twin/hush`, {
      data: {
        level: "normal",
        quietStart: (minute + 1380) % 1440,
        quietEnd: (minute + 120) % 1440,
        dailyCap: 12,
        muteHours: 0
      }
    })
    expect(put.status()).toBe(200)

    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)
    await page.locator('node-rail .live[data-state="live"]').waitFor()
    const widgetsBefore = await page.locator("desktop-place section.widget").count()

    reflection = {
      thought: "You keep coming back to the garden.",
      insights: [{ title: "The fig tree is due for water", body: "You said it needs water every Sunday." }],
      widgets: [
        { widgetType: "core.now", reason: "You check the time before your stand-up." },
        { widgetType: "twin.garden", reason: "A place for the garden." }
      ]
    }
    const reflected = await context.request.post(`${node.url}/api/twin/reflect`)
    expect(reflected.status(), await reflected.text()).toBe(200)

    // The suggestions arrive live: one dismissed, one added and kept after a reload.
    const suggestions = page.locator("desktop-suggestions")
    await suggestions.getByRole("button", { name: "Dismiss the twin.garden suggestion" }).click()
    await suggestions.getByRole("button", { name: "Add the Now widget" }).click()
    await page.locator("desktop-place").getByText("Now is on your desktop, in column").waitFor()
    expect(await suggestions.locator("li").count()).toBe(0)
    await page.reload()
    await waitForDesktop(page, owner)
    await expect.poll(() => page.locator("desktop-place section.widget").count()).toBe(widgetsBefore + 1)

    // The held count links to what was missed.
    const held = page.locator("desktop-now .held").first()
    await expect.poll(() => held.textContent()).toMatch(/1\s+nudge held for later/)
    await held.getByRole("link").click()
    await page.getByRole("heading", { name: "What did I miss" }).waitFor()
    expect(new URL(page.url()).search).toBe("?section=hush")
    const nudge = page.locator("twin-missed li.nudge", { hasText: "The fig tree is due for water" })
    await nudge.waitFor()
    await nudge.getByRole("button", { name: /Why was I nudged/ }).click()
    const why = nudge.locator("twin-nudge-why .why")
    await expect
      .poll(() => why.textContent())
      .toMatch(/Your twin's own idea \(proactive\)[\s\S]*Held for later[\s\S]*quiet_hours/)
    // A reflection insight rests on the memories its pass read: each is shown by its kind and first line.
    await expect
      .poll(() => why.locator(".evidence li").first().textContent())
      .toMatch(/(fact|episode|preference|relationship|document|insight): /)
    expect(await nudge.getByRole("button", { name: /Why was I nudged/ }).getAttribute("aria-expanded")).toBe("true")
    expect(problems).toEqual([])
    await page.close()
  })
})
