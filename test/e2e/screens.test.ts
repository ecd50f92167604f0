/**
 * Every place of the app, photographed: signed out (log in, register, waitlist, reset, confirm
 * email, not found) and signed in as the owner (desktop, studio, a generator's form, a finished
 * project with a markdown output open, work, the twin's sections, settings, admin), at a desktop's width (1280 px)
 * and a phone's (390 px), in the light scheme and a few in the dark one. With
 * `SAVE_SCREENSHOTS=1` the pictures are saved under docs/ui/ (docs/ui.md shows them); otherwise
 * in a temporary folder, so a test run leaves the tree as it was. On each place the test checks what a person would
 * notice: nothing runs off the side of a phone's screen, and the browser logs no error.
 *
 * A node with the scripted model server behind it runs a brief to done (and holds a second one
 * under way, so Work has open steps); signals, access codes and a waitlist entry give the
 * desktop and Admin something to show, and memories, a profile, to-dos, events and hush settings
 * the twin.
 */
import { mkdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, submitRegistration, waitForDesktop } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { Gate, scriptTeam } from "./scripted-team.ts"
import { fitsAPhone, watchConsole } from "./screens-checks.ts"

const shotsDir =
  process.env.SAVE_SCREENSHOTS === "1"
    ? fileURLToPath(new URL("../../docs/ui/", import.meta.url))
    : join(tmpdir(), "node-screens/")

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

/**
 * What every markdown file of the run ends with: a table, and what an agent should never get to
 * run, style or load (a script, event handlers, a style, an image from elsewhere, a javascript:
 * link). Its HTML shows as text.
 */
const agentMarkdown = [
  "| Tea | Steep | Temperature |",
  "| --- | --- | --- |",
  "| Sencha | 1 min | 75 °C |",
  "| Gyokuro | 2 min | 60 °C |",
  "",
  "<script>window.agentRan = 'script'</script>",
  '<img src="x" onerror="window.agentRan = \'image\'">',
  "",
  "![A picture from elsewhere](https://tracker.example/pixel.png)",
  "",
  "[A link that runs code](javascript:window.agentRan='link')",
  "",
  '<p style="color: red" onclick="window.agentRan = \'click\'">Styled by the agent</p>'
].join("\n")

const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const

type Width = keyof typeof widths

interface Shot {
  readonly name: string
  readonly path: string
  /** What shows once the place has loaded what it shows. */
  readonly ready: (page: Page) => Locator
  readonly before?: (page: Page) => Promise<void>
}

describe("every place, at a desktop's width and a phone's", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  const gates = { agents: new Gate(), reviewer: new Gate() }
  let projectId = ""

  beforeAll(async () => {
    await mkdir(shotsDir, { recursive: true })
    models = await startOpenAiServer()
    scriptTeam(models, gates, agentMarkdown)
    ;[node, browser] = await Promise.all([
      startNode({
        env: {
          LLM_BASE_URL: models.baseUrl,
          LLM_API_KEY: "sk-test-e2e",
          LLM_LOCAL: "false",
          // Every place at two widths, each a whole load of the app from one address within a minute or two: more
          // than the 300 requests a minute a person's tab makes, so the budget is the test's, not a person's.
          RATE_LIMIT_PER_MINUTE: "1000"
        }
      }),
      launchBrowser()
    ])
  })

  afterAll(async () => {
    gates.agents.open()
    gates.reviewer.open()
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  /** Opens each place at each width (and scheme), checks it and saves its picture. */
  const photograph = async (
    context: BrowserContext,
    shots: ReadonlyArray<Shot>,
    scheme: "light" | "dark",
    only: ReadonlyArray<Width> = ["desktop", "phone"]
  ): Promise<void> => {
    const page = await context.newPage()
    await page.emulateMedia({ colorScheme: scheme })
    const problems = watchConsole(page)
    for (const width of only) {
      await page.setViewportSize(widths[width])
      for (const shot of shots) {
        await page.goto(`${node.url}${shot.path}`)
        await shot.ready(page).first().waitFor()
        // Signed in, the rail says whether the live channel is up: wait until it is.
        if (signedInPaths.has(shot.name)) await page.locator('node-rail .live[data-state="live"]').waitFor()
        await shot.before?.(page)
        await page.evaluate(() => document.fonts.ready)
        if (width === "phone") await fitsAPhone(page, shot.name)
        const suffix = scheme === "dark" ? "-dark" : ""
        await page.screenshot({
          path: `${shotsDir}${shot.name}-${widths[width].width}${suffix}.png`,
          animations: "disabled",
          caret: "hide"
        })
      }
    }
    expect(problems).toEqual([])
    await page.close()
  }

  const twinSections = ["profile", "activity", "todos", "agenda", "hush"] as const

  const signedInPaths = new Set([
    "desktop",
    "studio",
    "generator",
    "project",
    "project-preview",
    "work",
    "twin",
    ...twinSections.map((section) => `twin-${section}`),
    "settings",
    "admin"
  ])

  const signedOut: ReadonlyArray<Shot> = [
    { name: "login", path: "/login", ready: (page) => page.getByRole("button", { name: "Log in" }) },
    {
      name: "register",
      path: "/register?code=ABCD-EFGH",
      ready: (page) => page.getByRole("button", { name: "Register" })
    },
    { name: "waitlist", path: "/waitlist", ready: (page) => page.getByRole("button", { name: "Join the waitlist" }) },
    { name: "reset", path: "/reset", ready: (page) => page.getByRole("button", { name: "Send a reset link" }) },
    {
      name: "reset-token",
      path: "/reset?token=from-the-mail",
      ready: (page) => page.getByRole("button", { name: "Set the password" })
    },
    { name: "verify", path: "/verify?token=an-old-token", ready: (page) => page.locator("verify-place node-alert p") },
    { name: "not-found", path: "/no/such/place", ready: (page) => page.getByRole("heading", { name: "Not found" }) }
  ]

  test("signed out: log in, register, waitlist, reset, confirm email and not found", async () => {
    const context = await browser.newContext()
    await photograph(context, signedOut, "light")
    await photograph(context, signedOut.slice(0, 1), "dark")
    await context.close()
  })

  /** The owner's session, and what the places of a lived-in node show. */
  const setUp = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: widths.desktop })
    const page = await context.newPage()
    await page.goto(`${node.url}/register?code=${encodeURIComponent(node.ownerCode)}`)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(node.ownerCode)
    await submitRegistration(page, owner)
    await waitForDesktop(page, owner)
    await page.close()
    await seed(context.request)
    return context
  }

  const post = async (request: APIRequestContext, path: string, data: unknown): Promise<any> => {
    const response = await request.post(`${node.url}${path}`, { data })
    expect(response.status(), `${path}: ${await response.text()}`).toBe(200)
    return response.json()
  }

  const projectStatus = async (request: APIRequestContext, id: string): Promise<string> => {
    const response = await request.get(`${node.url}/api/studio/projects/${id}`)
    return ((await response.json()) as { project: { status: string } }).project.status
  }

  const seed = async (request: APIRequestContext): Promise<void> => {
    await post(request, "/api/desktop/signals", {
      kind: "decision",
      priority: "high",
      title: "Publish the heat pump brief?",
      body: "The QA reviewer passed it with one note about sources.",
      options: [
        { id: "yes", label: "Publish", hint: "Share the link" },
        { id: "no", label: "Hold it" }
      ]
    })
    await post(request, "/api/desktop/signals", {
      kind: "reminder",
      title: "Renew the domain",
      body: "It expires in nine days."
    })
    await post(request, "/api/auth/codes", { count: 2, note: "For the design reviewers" })
    const visitor = await browser.newContext()
    await post(visitor.request, "/api/auth/waitlist", {
      email: "sam.visitor@example.net",
      name: "Sam Visitor",
      why: "I run a small design studio and would like to try the generators."
    })
    await visitor.close()
    await seedTwin(request)

    const done = await post(request, "/api/studio/projects", {
      brief: "Write a one-page note on green tea for a curious reader"
    })
    projectId = done.id
    await expect.poll(() => projectStatus(request, projectId), { timeout: 30_000 }).toBe("done")
    // A second run held at its agents' gate, so Work has open steps to show.
    gates.agents.close()
    const held = await post(request, "/api/studio/projects", { brief: "Compare three heat pumps for a small house" })
    await expect.poll(() => projectStatus(request, held.id), { timeout: 30_000 }).toBe("running")
  }

  /** What the twin's sections show: memories, a profile, activity, to-dos, a week's events and quiet hours. */
  const seedTwin = async (request: APIRequestContext): Promise<void> => {
    for (const [content, kind, importance] of [
      ["My sister Ada lives in Porto and visits every spring", "relationship", 0.8],
      ["I prefer tea to coffee in the afternoon", "preference", 0.6],
      ["The fig tree on the balcony needs water every Sunday", "fact", 0.5],
      ["Walked along the river with Ada; we talked about her new job", "episode", 0.4]
    ] as const) {
      await post(request, "/api/twin/memories", { content, kind, importance, source: "journal" })
    }
    const profile = await request.patch(`${node.url}/api/twin/profile`, {
      data: {
        facts: ["I live in Lyon", "I work as a landscape architect"],
        goals: ["Run a half marathon in spring"],
        routines: ["Gym on Tuesday evenings"],
        tone: "Warm and brief"
      }
    })
    expect(profile.status()).toBe(200)
    const preferences = await request.patch(`${node.url}/api/twin/profile/preferences`, {
      data: { coffee: "oat flat white", units: "metric" }
    })
    expect(preferences.status()).toBe(200)
    for (const title of ["Call the plumber about the boiler", "Renew the passport", "Send Ada the photos"]) {
      await post(request, "/api/twin/todos", { title })
    }
    const dueSoon = await post(request, "/api/twin/todos", {
      title: "Book the dentist",
      dueAt: new Date(Date.now() + 2 * 86_400_000).toISOString()
    })
    await post(request, `/api/twin/todos/${dueSoon.id}/defer`, {})
    // This week's days (Monday first, as the agenda's week), whatever day the test runs.
    const today = new Date()
    const monday = today.getUTCDate() - ((today.getUTCDay() + 6) % 7)
    const at = (weekday: number, hour: number, minute = 0) =>
      new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), monday + weekday, hour, minute)).toISOString()
    await post(request, "/api/twin/calendar", {
      title: "Stand-up",
      startAt: at(0, 8, 30),
      endAt: at(0, 8, 45),
      recurrence: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
    })
    await post(request, "/api/twin/calendar", { title: "Dentist", startAt: at(2, 14), endAt: at(2, 14, 45) })
    await post(request, "/api/twin/calendar", { title: "Lunch with Ada", startAt: at(3, 12, 30), endAt: at(3, 14) })
    // Quiet hours around now, so the insight a reflection raises is held: "What did I miss" and the
    // desktop's count show it. (No studio run is under way yet: the one scripted reply is reflection's.)
    const minute = today.getUTCHours() * 60 + today.getUTCMinutes()
    const hush = await request.put(`${node.url}/api/twin/hush`, {
      data: { level: "fewer", quietStart: (minute + 1380) % 1440, quietEnd: (minute + 180) % 1440, dailyCap: 8 }
    })
    expect(hush.status()).toBe(200)
    models.script("chat", {
      content: JSON.stringify({
        thought: "Ada comes up often lately; spring is when she visits.",
        insights: [
          {
            title: "Ada visits in spring: plan a free weekend",
            body: "You wrote that she visits every spring, and your calendar has nothing blocked yet."
          }
        ],
        widgets: []
      })
    })
    const reflected = await post(request, "/api/twin/reflect", {})
    expect(reflected.signals).toHaveLength(1)
  }

  const signedIn = (): ReadonlyArray<Shot> => [
    { name: "desktop", path: "/", ready: (page) => page.locator("desktop-signals li.signal").nth(1) },
    { name: "studio", path: "/studio", ready: (page) => page.locator('studio-portfolio section[data-group="done"]') },
    {
      name: "generator",
      path: "/studio?generator=blog-post",
      ready: (page) => page.locator("schema-form").getByLabel("Topic")
    },
    {
      name: "project",
      path: `/studio/${projectId}`,
      ready: (page) => page.locator('project-place .status[data-status="done"]')
    },
    {
      name: "project-preview",
      path: `/studio/${projectId}`,
      ready: (page) => page.locator("project-outputs li.output").first(),
      before: async (page) => {
        const output = page.locator('project-outputs li.output[data-kind="markdown"]').last()
        await output.getByText("Preview").click()
        const markdown = output.locator("output-preview .markdown")
        await markdown.locator("h4").first().waitFor()
        // Drawn as a document (its table too), with nothing of the agent's markup that runs or styles.
        expect(await markdown.locator("table td").first().textContent()).toBe("Sencha")
        expect(
          await markdown.locator("script, img, iframe, [onclick], [onerror], [style], [href^='javascript']").count()
        ).toBe(0)
        await markdown.getByText("<script>window.agentRan = 'script'</script>").waitFor()
        await markdown.getByText("A picture from elsewhere", { exact: true }).waitFor()
        await markdown.getByText("A link that runs code").click()
        expect(await page.evaluate(() => (window as { agentRan?: string }).agentRan)).toBeUndefined()
        await output.locator("output-preview").evaluate((element) => element.scrollIntoView({ block: "start" }))
      }
    },
    { name: "work", path: "/work", ready: (page) => page.locator("work-place li.step") },
    { name: "twin", path: "/twin", ready: (page) => page.locator("twin-memories li.memory").nth(3) },
    {
      name: "twin-profile",
      path: "/twin?section=profile",
      ready: (page) => page.locator("twin-profile .preferences li").nth(1)
    },
    { name: "twin-activity", path: "/twin?section=activity", ready: (page) => page.locator("twin-status .counts") },
    { name: "twin-todos", path: "/twin?section=todos", ready: (page) => page.locator("twin-todos li.todo").nth(3) },
    {
      name: "twin-agenda",
      path: "/twin?section=agenda",
      ready: (page) => page.locator("twin-agenda li.entry", { hasText: "Lunch with Ada" })
    },
    {
      name: "twin-hush",
      path: "/twin?section=hush",
      ready: (page) => page.locator("twin-missed li.nudge"),
      before: async (page) => {
        await page.getByRole("button", { name: /Why was I nudged/ }).click()
        await page.locator("twin-nudge-why dl.stamp").waitFor()
      }
    },
    { name: "settings", path: "/settings", ready: (page) => page.locator("settings-email .email-state") },
    { name: "admin", path: "/admin", ready: (page) => page.locator("admin-accounts tr[data-handle]") }
  ]

  // About forty page loads (each place at two widths, some dark), each waiting for the live channel:
  // a minute was passed on a busy two-core machine with every place answering, hence three.
  test("signed in as the owner: desktop, studio, a project, work, the twin, settings and admin", async () => {
    const context = await setUp()
    const shots = signedIn()
    await photograph(context, shots, "light")
    await photograph(
      context,
      shots.filter((shot) => ["desktop", "studio", "project-preview", "twin-agenda", "admin"].includes(shot.name)),
      "dark"
    )
    await context.close()
  }, 180_000)
})
