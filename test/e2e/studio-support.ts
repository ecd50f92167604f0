/**
 * What the studio's end-to-end files share: a node whose models are the scripted OpenAI server
 * answering as the scripted team (scripted-team.ts) with the agents and the reviewer held at
 * gates, one browser page on it, and the requests the tests wait for.
 */
import type { Browser, Page, Request } from "playwright-core"
import { afterAll, afterEach, beforeAll } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { Gate, scriptTeam } from "./scripted-team.ts"

export const isProjectStart = (request: Request) =>
  request.method() === "POST" && new URL(request.url()).pathname === "/api/studio/projects"

export interface StudioSession {
  models: OpenAiServer
  node: RunningNode
  browser: Browser
  page: Page
  breakage: ReadonlyArray<string>
  readonly gates: { readonly agents: Gate; readonly reviewer: Gate }
  readonly statusOf: (status: string) => ReturnType<Page["locator"]>
  readonly gallery: (current: Page) => ReturnType<Page["locator"]>
}

/** The scripted team's model server (held at `gates`), a node using it, and a browser. */
export const startStudio = async (gates: { readonly agents: Gate; readonly reviewer: Gate }) => {
  const models = await startOpenAiServer()
  scriptTeam(models, gates)
  const [node, browser] = await Promise.all([
    startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
    launchBrowser()
  ])
  return { models, node, browser }
}

/** Starts the models, the node and the browser before the describe's tests, and stops them after. */
export const studioSession = (): StudioSession => {
  const studio = {
    gates: { agents: new Gate(), reviewer: new Gate() },
    statusOf: (status: string) => studio.page.locator(`project-place .status[data-status="${status}"]`),
    gallery: (current: Page) => current.locator("studio-gallery")
  } as StudioSession

  beforeAll(async () => {
    ;({ models: studio.models, node: studio.node, browser: studio.browser } = await startStudio(studio.gates))
    studio.page = await (await studio.browser.newContext()).newPage()
    studio.breakage = watchForBreakage(studio.page)
  })

  // A test that fails with a gate closed must not hold up the next one.
  afterEach(() => {
    studio.gates.agents.open()
    studio.gates.reviewer.open()
  })

  afterAll(async () => {
    studio.gates.agents.open()
    studio.gates.reviewer.open()
    await studio.browser?.close()
    await studio.node?.stop()
    await studio.models?.close()
  })
  return studio
}
