/**
 * What the studio's flows for one signed-in owner share: the scripted team (scripted-team.ts) on the scripted OpenAI
 * server with its gates, a node using it, a browser, the owner registered (their session cookie), a project's detail
 * over the API and a poll on it, and a page at a given size signed in as the owner.
 */
import type { Page } from "playwright-core"
import { beforeAll, expect } from "vitest"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { call, cookieOf, type Person, registerThroughApi } from "./flows.ts"
import { Gate } from "./scripted-team.ts"
import { type StudioServers, studioServers } from "./studio-support.ts"

export interface OwnerStudio extends StudioServers {
  cookie: string
  readonly detail: (id: string) => Promise<ProjectDetail>
  readonly until: (id: string, check: (found: ProjectDetail) => boolean) => Promise<void>
  readonly open: (size: { width: number; height: number }) => Promise<Page>
}

/** Started before the describe's tests, stopped after them (the browser's contexts with it). */
export const ownerStudio = (owner: Person): OwnerStudio => {
  const studio = studioServers({
    gates: { agents: new Gate(), reviewer: new Gate() },
    detail: (id: string) =>
      call(studio.node.url, studio.cookie, "GET", `/api/studio/projects/${id}`) as Promise<ProjectDetail>,
    until: (id: string, check: (found: ProjectDetail) => boolean) =>
      expect.poll(async () => check(await studio.detail(id)), { timeout: 15_000 }).toBe(true),
    open: async (size: { width: number; height: number }) => {
      const context = await studio.browser.newContext({ viewport: size })
      const [name, value] = studio.cookie.split("=") as [string, string]
      await context.addCookies([{ name, value, url: studio.node.url }])
      return context.newPage()
    }
  } as OwnerStudio)

  beforeAll(async () => {
    studio.cookie = cookieOf(await registerThroughApi(studio.node.url, owner, studio.node.ownerCode))
  })
  return studio
}
