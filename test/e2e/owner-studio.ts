/**
 * What the studio's flows for one signed-in owner share: the scripted team (scripted-team.ts) on the scripted OpenAI
 * server with its gates, a node using it, a browser, the owner registered (their session cookie), a project's detail
 * over the API and a poll on it, and a page at a given size signed in as the owner.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, expect } from "vitest"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import type { OpenAiServer } from "../support/openai-server.ts"
import { call, cookieOf, type Person, registerThroughApi } from "./flows.ts"
import type { RunningNode } from "./node-host.ts"
import { Gate } from "./scripted-team.ts"
import { startStudio } from "./studio-support.ts"

export interface OwnerStudio {
  models: OpenAiServer
  node: RunningNode
  browser: Browser
  cookie: string
  readonly gates: { readonly agents: Gate; readonly reviewer: Gate }
  readonly detail: (id: string) => Promise<ProjectDetail>
  readonly until: (id: string, check: (found: ProjectDetail) => boolean) => Promise<void>
  readonly open: (size: { width: number; height: number }) => Promise<Page>
}

/** Started before the describe's tests, stopped after them. */
export const ownerStudio = (owner: Person): OwnerStudio => {
  const contexts: Array<BrowserContext> = []
  const studio = {
    gates: { agents: new Gate(), reviewer: new Gate() },
    detail: (id: string) =>
      call(studio.node.url, studio.cookie, "GET", `/api/studio/projects/${id}`) as Promise<ProjectDetail>,
    until: (id: string, check: (found: ProjectDetail) => boolean) =>
      expect.poll(async () => check(await studio.detail(id)), { timeout: 15_000 }).toBe(true),
    open: async (size: { width: number; height: number }) => {
      const context = await studio.browser.newContext({ viewport: size })
      contexts.push(context)
      const [name, value] = studio.cookie.split("=") as [string, string]
      await context.addCookies([{ name, value, url: studio.node.url }])
      return context.newPage()
    }
  } as OwnerStudio

  beforeAll(async () => {
    ;({ models: studio.models, node: studio.node, browser: studio.browser } = await startStudio(studio.gates))
    studio.cookie = cookieOf(await registerThroughApi(studio.node.url, owner, studio.node.ownerCode))
  })

  // A test that fails with a gate closed must not hold up the next one.
  afterEach(() => {
    studio.gates.agents.open()
    studio.gates.reviewer.open()
  })

  afterAll(async () => {
    studio.gates.agents.open()
    studio.gates.reviewer.open()
    for (const context of contexts) await context.close()
    await studio.browser?.close()
    await studio.node?.stop()
    await studio.models?.close()
  })
  return studio
}
