/**
 * The Muse's place in Chromium, as its being uses it, with the standard tier bound to the
 * scripted model server: naming the Muse; a message sent with Enter shows the Muse thinking,
 * then a tool chip going to done, then the answer streaming in as markdown (HTML from the model
 * shown as text, never run); Shift+Enter writes a new line; a world-acting tool's chip says it
 * waits for approval on the desktop; a reload mid-reply shows the text so far and then the rest;
 * an upload goes with a message; a second conversation and the switcher; a phone's width fits;
 * and a node with no model says plainly that the Muse is asleep.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, registerThroughApi, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Maya Muse",
  handle: "maya",
  email: "maya@example.org",
  password: "maya-password-1"
}

const story = Array.from({ length: 60 }, (_, index) => `word${index}`).join(" ")

const answer = "Six times seven is **42**. <script>window.__ran = true</script>"

const lastUserText = (request: ReceivedRequest): string =>
  String([...(request.body.messages ?? [])].reverse().find((message) => message.role === "user")?.content ?? "")

/** The Muse's replies by what was asked; a tool's result is answered with the markdown answer. */
const museReply = (request: ReceivedRequest) => {
  if (request.body.messages?.at(-1)?.role === "tool") {
    return request.body.messages.at(-1)?.tool_call_id === "call_http"
      ? { content: "The hook waits for you." }
      : { content: answer, chunkDelayMs: 30 }
  }
  const asked = lastUserText(request)
  if (asked.includes("six times seven")) {
    // Long enough before the first byte for the thinking state to be seen.
    return {
      toolCalls: [{ id: "call_math", name: "math__evaluate", arguments: { expression: "6 * 7" } }],
      delayMs: 800
    }
  }
  if (asked.includes("hook"))
    return {
      toolCalls: [
        { id: "call_http", name: "http__request", arguments: { method: "POST", url: "https://example.org/hook" } }
      ]
    }
  if (asked.includes("long story")) return { content: story, chunkDelayMs: 80 }
  return { content: "A scripted reply." }
}

const signIn = async (
  browser: Browser,
  node: RunningNode,
  person: Person,
  viewport = { width: 1280, height: 800 }
): Promise<BrowserContext> => {
  const registered = await registerThroughApi(node.url, person, node.ownerCode)
  const [pair] = registered.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  const context = await browser.newContext({ viewport, locale: "en-GB" })
  await context.addCookies([{ name: "svc_session", value: pair!.slice("svc_session=".length), url: node.url }])
  return context
}

const openMuse = async (context: BrowserContext, url: string): Promise<Page> => {
  const page = await context.newPage()
  await page.goto(`${url}/muse`)
  await page.getByRole("heading", { name: "Muse", level: 1 }).waitFor()
  await page.locator('node-rail .live[data-state="live"]').waitFor()
  await page.locator("thread-conversation textarea").waitFor()
  return page
}

const composer = (page: Page) => page.getByRole("textbox", { name: "Message" })

/** The stored messages of the open conversation, by role. */
const messages = (page: Page, role: "user" | "assistant") =>
  page.locator(`thread-conversation li.message[data-message-id][data-role="${role}"]`)

describe("the Muse's place", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    models = await startOpenAiServer()
    models.handle("chat", museReply)
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
    context = await signIn(browser, node, owner)
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  test("named, asked with Enter: thinking, a tool chip done, then the answer streaming in as safe markdown", async () => {
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)
    await rail(page).getByRole("link", { name: "Muse" }).click()
    await page.getByRole("heading", { name: "Muse", level: 1 }).waitFor()
    await page.locator('node-rail .live[data-state="live"]').waitFor()
    expect(new URL(page.url()).pathname).toBe("/muse")

    await page.getByText("Your Muse is called Muse.").waitFor()
    await page.getByRole("button", { name: "Rename" }).click()
    await page.getByLabel("Muse name").fill("Iris")
    await page.getByRole("button", { name: "Save name" }).click()
    await page.getByText("Your Muse is called Iris.").waitFor()
    expect(await composer(page).getAttribute("placeholder")).toBe("Write to Iris")

    await composer(page).fill("What is six times seven?")
    await composer(page).press("Enter")
    await page.locator("thread-conversation .thinking").filter({ hasText: "Iris is thinking…" }).waitFor()
    await expect.poll(() => messages(page, "user").last().textContent()).toContain("What is six times seven?")
    await page.locator('thread-conversation .chip[data-tool="math.evaluate"][data-state="done"]').waitFor()
    const reply = messages(page, "assistant").last()
    await reply.locator("strong", { hasText: "42" }).waitFor()
    await expect.poll(() => reply.textContent()).toContain("Six times seven is 42.")
    // The model's HTML is text, not markup: no script element, nothing ran.
    expect(await reply.textContent()).toContain("<script>window.__ran = true</script>")
    expect(await reply.locator("script").count()).toBe(0)
    expect(await page.evaluate(() => (window as { __ran?: boolean }).__ran)).toBeUndefined()
    // The stored reply keeps its chip.
    expect(await reply.locator('.chip[data-tool="math.evaluate"][data-state="done"]').count()).toBe(1)
    expect(await page.locator("thread-conversation .thinking").count()).toBe(0)

    // Shift+Enter is a new line; Enter sends.
    await composer(page).pressSequentially("line one")
    await composer(page).press("Shift+Enter")
    await composer(page).pressSequentially("line two")
    expect(await composer(page).inputValue()).toBe("line one\nline two")
    await composer(page).press("Enter")
    await expect.poll(() => messages(page, "user").last().locator(".text").textContent()).toBe("line one\nline two")
    await expect.poll(() => messages(page, "assistant").last().textContent()).toContain("A scripted reply.")
    expect(await composer(page).inputValue()).toBe("")
    expect(problems).toEqual([])
    await page.close()
  })

  test("a world-acting tool's chip waits for approval and leads to the desktop", async () => {
    const page = await openMuse(context, node.url)
    await composer(page).fill("Please tell the hook we are done")
    await composer(page).press("Enter")
    const chip = page.locator(
      'thread-conversation li.message[data-message-id] .chip[data-tool="http.request"][data-state="approval"]'
    )
    await chip.waitFor()
    expect(await chip.textContent()).toContain("Waits for your approval")
    expect(await chip.getByRole("link", { name: "Decide on the desktop" }).getAttribute("href")).toBe("/")
    await page.close()
  })

  test("a reload mid-reply shows the text so far, then the rest", async () => {
    const page = await openMuse(context, node.url)
    await composer(page).fill("Tell me a long story")
    await composer(page).press("Enter")
    const streaming = page.locator("thread-conversation li.streaming")
    await expect.poll(() => streaming.textContent(), { timeout: 10_000 }).toContain("word8")
    await page.reload()
    await page.getByRole("heading", { name: "Muse", level: 1 }).waitFor()
    // After the reload the reply so far arrives at once, while it is still streaming.
    await expect
      .poll(() => page.locator("thread-conversation li.streaming").textContent(), { timeout: 10_000 })
      .toMatch(/word0 word1 word2[\s\S]*word8/)
    await expect.poll(() => messages(page, "assistant").last().textContent(), { timeout: 15_000 }).toContain("word59")
    expect((await messages(page, "assistant").last().locator(".markdown").textContent())?.trim()).toBe(story)
    await page.close()
  })

  test("an upload goes with a message; a new conversation and the switcher; a phone's width fits", async () => {
    const form = { file: { name: "plan.txt", mimeType: "text/plain", buffer: Buffer.from("the garden plan") } }
    const uploaded = await context.request.post(`${node.url}/api/files/upload`, { multipart: form })
    expect(uploaded.status(), await uploaded.text()).toBe(200)
    const page = await openMuse(context, node.url)
    await page.getByRole("button", { name: "Attach" }).click()
    await page.getByRole("checkbox", { name: "plan.txt" }).check()
    await composer(page).fill("Here is my plan")
    await page.getByRole("button", { name: "Send" }).click()
    await expect.poll(() => messages(page, "user").last().locator(".attachments").textContent()).toContain("plan.txt")

    await page.getByRole("button", { name: "New conversation" }).click()
    await page.getByText("No messages yet.").waitFor()
    const switcher = page.getByRole("combobox", { name: "Conversation" })
    await expect.poll(() => switcher.locator("option").count()).toBe(2)
    await composer(page).fill("A fresh start")
    await composer(page).press("Enter")
    await expect.poll(() => messages(page, "assistant").count()).toBe(1)
    // Back to the first conversation through the switcher: the option that is not the one open. Not by its place: the
    // list is ordered by last activity, and the inbox may hear of the new conversation's message after its reply began.
    const open = await switcher.inputValue()
    const values = await switcher
      .locator("option")
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
    const first = values.find((value) => value !== open && value !== "")
    await switcher.selectOption(first!)
    await expect.poll(() => messages(page, "user").count()).toBeGreaterThan(3)

    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    const send = await page.getByRole("button", { name: "Send" }).boundingBox()
    expect(send!.x + send!.width).toBeLessThanOrEqual(390)
    await page.close()
  })

  test("with no model bound the Muse says plainly that it is asleep", async () => {
    const bare = await startNode()
    const sleeper = await signIn(
      browser,
      bare,
      { displayName: "Sam Sleeper", handle: "sam", email: "sam@example.org", password: "sam-password-1" },
      { width: 390, height: 844 }
    )
    try {
      const page = await openMuse(sleeper, bare.url)
      await composer(page).fill("Are you there?")
      await composer(page).press("Enter")
      await expect.poll(() => messages(page, "assistant").last().textContent()).toContain("Muse is asleep")
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    } finally {
      await sleeper.close()
      await bare.stop()
    }
  })
})
