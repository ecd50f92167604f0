/**
 * Voice in /muse, in Chromium against a real node whose every tier is a scripted remote provider:
 * a Muse reply read aloud (the speech tier's audio played from a blob in an <audio> element), and
 * the choice between the node's transcription and the browser's own recogniser, said plainly and
 * remembered for the being across a reload; a browser without the Web Speech API is not offered it.
 * Desktop and phone width.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Sol Speaker",
  handle: "sol",
  email: "sol@example.org",
  password: "sol-password-1"
}
const member: Person = { displayName: "Pia Phone", handle: "pia", email: "pia@example.org", password: "pia-password-1" }

let models: OpenAiServer
let node: RunningNode
let browser: Browser

const signIn = async (
  person: Person,
  accessCode: string,
  viewport: { width: number; height: number }
): Promise<BrowserContext> => {
  const registered = await registerThroughApi(node.url, person, accessCode)
  const [pair] = registered.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  const context = await browser.newContext({ viewport, locale: "en-GB" })
  await context.addCookies([{ name: "svc_session", value: pair!.slice("svc_session=".length), url: node.url }])
  return context
}

const openMuse = async (page: Page) => {
  await page.goto(`${node.url}/muse`)
  await page.getByRole("heading", { name: "Muse", level: 1 }).waitFor()
  await page.locator('node-rail .live[data-state="live"]').waitFor()
  await page.locator("thread-conversation textarea").waitFor()
}

/** Asks the Muse and waits for its stored reply. */
const askMuse = async (page: Page, text: string) => {
  await page.getByRole("textbox", { name: "Message" }).fill(text)
  await page.keyboard.press("Enter")
  const reply = page.locator('thread-conversation li.message[data-message-id][data-role="assistant"]').last()
  await reply.waitFor()
  return reply
}

/** The access code the owner mints for a second person. */
const mintCode = async (context: BrowserContext) => {
  const answer = await context.request.post(`${node.url}/api/auth/codes`, { data: { count: 1 } })
  return ((await answer.json()) as Array<{ code: string }>)[0]!.code
}

beforeAll(async () => {
  models = await startOpenAiServer()
  models.handle("chat", () => ({ content: "The lighthouse keeps its watch." }))
  ;[node, browser] = await Promise.all([
    startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e-speech", LLM_LOCAL: "false" } }),
    launchBrowser()
  ])
})

afterAll(async () => {
  await browser?.close()
  await node?.stop()
  await models?.close()
})

describe("voice in /muse", () => {
  let desktop: BrowserContext

  test("a Muse reply is read aloud: the speech tier's audio plays from a blob", async () => {
    desktop = await signIn(owner, node.ownerCode, { width: 1280, height: 800 })
    const page = await desktop.newPage()
    const problems = watchForBreakage(page)
    await openMuse(page)
    const reply = await askMuse(page, "Tell me about the lighthouse.")
    await reply.getByRole("button", { name: "Read aloud" }).click()
    const audio = reply.locator("read-aloud audio")
    await audio.waitFor()
    expect(await audio.evaluate((element: HTMLAudioElement) => element.src.startsWith("blob:"))).toBe(true)
    // Chromium decoded the answer as audio (its length is known, no media error) and played it.
    await expect
      .poll(
        () =>
          audio.evaluate((element: HTMLAudioElement) => ({
            ready: element.readyState >= 1,
            timed: element.duration > 0,
            error: element.error?.code ?? null,
            played: element.played.length > 0
          })),
        { timeout: 10_000 }
      )
      .toEqual({ ready: true, timed: true, error: null, played: true })
    const [spoken] = models.requestsFor("speech")
    expect(spoken!.body).toMatchObject({ input: "The lighthouse keeps its watch.", response_format: "mp3" })
    expect(problems).toEqual([])
  })

  test("the browser's recogniser is offered beside the node's transcription, said plainly, and the choice is remembered", async () => {
    const page = await desktop.newPage()
    await openMuse(page)
    const choice = page.getByRole("group", { name: "Turn your voice into text with" })
    await choice.getByRole("radio", { name: "This node's transcription" }).waitFor()
    expect(await choice.getByRole("radio", { name: "This node's transcription" }).isChecked()).toBe(true)
    await expect.poll(() => page.getByRole("button", { name: "Record a voice note" }).count()).toBe(1)

    await choice.getByRole("radio", { name: "Your browser's recogniser" }).check()
    await page
      .getByText(
        "Your browser sends the audio to its vendor (Google, for Chrome) to turn it into text; this node never hears it."
      )
      .waitFor()
    await page.getByRole("button", { name: "Speak to your browser" }).waitFor()
    expect(await page.getByRole("button", { name: "Record a voice note" }).count()).toBe(0)
    await expect
      .poll(async () => {
        const profile = (await (await desktop.request.get(`${node.url}/api/twin/profile`)).json()) as {
          preferences: Record<string, unknown>
        }
        return profile.preferences.voiceInput
      })
      .toBe("browser")

    await page.reload()
    await openMuse(page)
    await page.getByRole("button", { name: "Speak to your browser" }).waitFor()
    expect(await page.getByRole("radio", { name: "Your browser's recogniser" }).isChecked()).toBe(true)
    await page.close()
  })

  test("at a phone's width, in a browser without the Web Speech API: no recogniser offered, the node's recorder and read-aloud still there", async () => {
    const code = await mintCode(desktop)
    const phone = await signIn(member, code, { width: 390, height: 844 })
    // This browser lacks the API: the test takes it away before the app loads.
    await phone.addInitScript(() => {
      delete (window as { webkitSpeechRecognition?: unknown }).webkitSpeechRecognition
      delete (window as { SpeechRecognition?: unknown }).SpeechRecognition
    })
    const page = await phone.newPage()
    const problems = watchForBreakage(page)
    await openMuse(page)
    await page.getByRole("button", { name: "Record a voice note" }).waitFor()
    expect(await page.getByRole("radio").count()).toBe(0)
    expect(await page.getByText("Your browser's recogniser").count()).toBe(0)
    const reply = await askMuse(page, "And at night?")
    await reply.getByRole("button", { name: "Read aloud" }).click()
    await reply.locator("read-aloud audio").waitFor()
    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(problems).toEqual([])
    await phone.close()
  })
})
