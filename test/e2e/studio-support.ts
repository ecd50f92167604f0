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

export interface StudioSession extends StudioServers {
  page: Page
  breakage: ReadonlyArray<string>
  readonly statusOf: (status: string) => ReturnType<Page["locator"]>
  readonly gallery: (current: Page) => ReturnType<Page["locator"]>
}

export interface StudioServers {
  models: OpenAiServer
  node: RunningNode
  browser: Browser
  readonly gates: { readonly agents: Gate; readonly reviewer: Gate }
}

/**
 * For the describe: the scripted team's model server (held at `studio.gates`), a node using it, and a browser,
 * started before its tests into `studio` and stopped after them; the gates open after each test.
 */
export const studioServers = <S extends StudioServers>(studio: S): S => {
  beforeAll(async () => {
    studio.models = await startOpenAiServer()
    scriptTeam(studio.models, studio.gates)
    ;[studio.node, studio.browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: studio.models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
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

/** Starts the models, the node and the browser before the describe's tests, and stops them after. */
export const studioSession = (): StudioSession => {
  const studio = studioServers({
    gates: { agents: new Gate(), reviewer: new Gate() },
    statusOf: (status: string) => studio.page.locator(`project-place .status[data-status="${status}"]`),
    gallery: (current: Page) => current.locator("studio-gallery")
  } as StudioSession)

  beforeAll(async () => {
    studio.page = await (await studio.browser.newContext()).newPage()
    studio.breakage = watchForBreakage(studio.page)
  })
  return studio
}
