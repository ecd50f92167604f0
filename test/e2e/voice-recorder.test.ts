/**
 * `<voice-recorder>` in Chromium with a fake microphone, against a real node whose transcribe
 * tier is a scripted remote provider: the person is shown where the recording goes before it
 * leaves, cancelling sends nothing, agreeing records and the transcript comes back with where it
 * went; a provider failure is told in words. The element is bundled from its source here and
 * served on the node's own origin, so it calls the node as the app does.
 */
import * as esbuild from "esbuild"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { logIn, type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Vera Voice",
  handle: "vera",
  email: "vera@example.org",
  password: "vera-password-1"
}

let models: OpenAiServer
let node: RunningNode
let browser: Browser
let page: Page
let problems: ReadonlyArray<string>

const pageHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Voice</title>
<script type="module" src="/voice-test.js"></script></head><body><voice-recorder language="en"></voice-recorder></body></html>`

beforeAll(async () => {
  models = await startOpenAiServer()
  const [started, bundle] = await Promise.all([
    startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e-voice", LLM_LOCAL: "false" } }),
    esbuild.build({
      entryPoints: [fileURLToPath(new URL("../../ui/components/voice-recorder.ts", import.meta.url))],
      bundle: true,
      format: "esm",
      write: false,
      logLevel: "warning"
    })
  ])
  node = started
  await registerThroughApi(node.url, owner, node.ownerCode)
  browser = await launchBrowser({ fakeMedia: true })
  // The recorder's page is faked on the node's origin: its service worker (which answers the origin's pages) is kept out.
  const context = await browser.newContext({ serviceWorkers: "block" })
  page = await context.newPage()
  problems = watchForBreakage(page)
  await logIn(page, node.url, owner)
  await page.route(`${node.url}/voice-test`, (route) => route.fulfill({ contentType: "text/html", body: pageHtml }))
  await page.route(`${node.url}/voice-test.js`, (route) =>
    route.fulfill({ contentType: "text/javascript", body: bundle.outputFiles[0]!.text })
  )
  await page.goto(`${node.url}/voice-test`)
})

afterAll(async () => {
  await browser?.close()
  await node?.stop()
  await models?.close()
})

const recordButton = () => page.getByRole("button", { name: "Record a voice note" })
const dialog = () => page.getByRole("dialog", { name: "Send your recording off this device?" })

describe("<voice-recorder>", () => {
  test("shows where a recording would go before it leaves, and cancelling sends nothing", async () => {
    await recordButton().click()
    await expect.poll(() => dialog().isVisible()).toBe(true)
    const host = new URL(models.baseUrl).host
    await expect
      .poll(() => dialog().textContent())
      .toContain(`Your recording will leave this device for gpt-4o-mini-transcribe at ${host}.`)
    expect(await dialog().textContent()).toContain("about $0.003 a minute")
    await dialog().getByRole("button", { name: "Cancel" }).click()
    await expect.poll(() => dialog().isVisible()).toBe(false)
    const status = await page.evaluate(
      async () => (await fetch("/api/twin/voice/stt")).json() as Promise<{ consented: boolean }>
    )
    expect(status.consented).toBe(false)
    expect(models.requestsFor("transcriptions")).toHaveLength(0)
  })

  test("agreeing records from the microphone and shows the transcript with where it went", async () => {
    models.script("transcriptions", { text: "Buy bread on the way home.", seconds: 3 })
    await recordButton().click()
    await dialog().getByRole("button", { name: "Agree and record" }).click()
    const stop = page.getByRole("button", { name: "Stop and transcribe" })
    await stop.waitFor()
    await stop.click()
    const transcript = page.locator("voice-recorder .transcript")
    await expect.poll(() => transcript.textContent()).toContain("Buy bread on the way home.")
    expect(await transcript.textContent()).toContain("(left this device)")
    const [heard] = models.requestsFor("transcriptions")
    expect(heard!.fields.language).toBe("en")
    expect(heard!.files[0]!.type).toMatch(/^audio\/webm/)
    expect(heard!.files[0]!.size).toBeGreaterThan(0)
  })

  test("records without asking again once agreed, and tells a failed transcription in words", async () => {
    models.script("transcriptions", { error: { status: 500, message: "scripted outage" } })
    await recordButton().click()
    const stop = page.getByRole("button", { name: "Stop and transcribe" })
    await stop.waitFor()
    expect(await dialog().isVisible()).toBe(false)
    await stop.click()
    const alert = page.locator("voice-recorder node-alert")
    await expect
      .poll(async () => (await alert.count()) > 0 && (await alert.getAttribute("kind")) === "error")
      .toBe(true)
    await expect
      .poll(() =>
        page
          .locator("voice-recorder")
          .evaluate((element) => element.shadowRoot?.querySelector("node-alert")?.message ?? "")
      )
      .toContain("gpt-4o-mini-transcribe")
    expect(problems).toEqual([])
  })

  test("in /muse the microphone fills the composer with what was said, for the person to send", async () => {
    models.script("transcriptions", { text: "Remind me about the dentist.", seconds: 2 })
    await page.goto(`${node.url}/muse`)
    await recordButton().click()
    const stop = page.getByRole("button", { name: "Stop and transcribe" })
    await stop.waitFor()
    await stop.click()
    await expect
      .poll(() => page.getByLabel("Message", { exact: true }).inputValue())
      .toContain("Remind me about the dentist.")
    expect(problems).toEqual([])
  })
})
