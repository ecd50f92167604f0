/**
 * A person's step in the browser: while the owner's run is planning, a crew with Bea in the
 * writer's seat is bound, so the run gives the writing step to Bea. It shows in her Work place as
 * hers ("You"), she hands it in there, it leaves her queue, and the owner's run ends done.
 */
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import type { Handler } from "../support/openai-replies.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { Gate, scriptTeam } from "./scripted-team.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const bea: Person = { displayName: "Bea Writer", handle: "bea", email: "bea@example.org", password: "bea-password-12" }

const cookieOf = (response: globalThis.Response) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")[0]!

describe("a crew's person in the Work place", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let context: BrowserContext
  const gates = { agents: new Gate(), reviewer: new Gate() }
  // The planner waits here until the crew is bound.
  const planner = new Gate()

  beforeAll(async () => {
    models = await startOpenAiServer()
    let team: Handler<"chat"> = () => ({ content: "ok" })
    scriptTeam(
      { handle: (_route: string, handler: Handler<"chat">) => (team = handler) } as unknown as OpenAiServer,
      gates
    )
    models.handle("chat", async (request) => {
      if (request.body.response_format?.json_schema?.name === "plan") await planner.pass()
      return team(request)
    })
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
  })

  afterAll(async () => {
    planner.open()
    await context?.close()
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  test("hands in the step the run gave her, and the run goes on to done", async () => {
    const ownerCookie = cookieOf(await registerThroughApi(node.url, owner, node.ownerCode))
    const call = async (cookie: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${node.url}${path}`, {
        method,
        headers: { "content-type": "application/json", cookie, origin: node.url },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      expect(response.status, `${method} ${path}`).toBe(200)
      return (await response.json()) as any
    }
    const [code] = await call(ownerCookie, "POST", "/api/auth/codes", { count: 1, note: "Bea" })
    const beaResponse = await registerThroughApi(node.url, bea, code.code)
    const beaCookie = cookieOf(beaResponse)
    const beaId = ((await beaResponse.json()) as { being: { id: string } }).being.id

    planner.close()
    const project = await call(ownerCookie, "POST", "/api/studio/projects", {
      brief: "Write a short note on green tea."
    })
    const crew = await call(ownerCookie, "POST", "/api/groups", { name: "Tea crew", kind: "crew" })
    await call(ownerCookie, "POST", `/api/groups/${crew.id}/members`, { beingId: beaId, role: "writer" })
    await call(ownerCookie, "PUT", `/api/projects/${project.id}/crew`, { groupId: crew.id })
    planner.open()

    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const [name, value] = beaCookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    const page = await context.newPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/work`)
    const step = page.locator("work-place .step").filter({ hasText: "Write the note on green tea" })
    await step.filter({ hasText: "You (writer)" }).waitFor()
    const form = step.getByRole("form", { name: "Hand in Write the note on green tea" })
    await form
      .getByLabel("What you hand in")
      .fill("# Green tea\n\n## Summary\n\nSteep it cool.\n\n## Sources\n\nhttps://example.org/tea")
    await form.getByRole("button", { name: "Hand it in" }).click()
    await page.getByText("Nothing is open.").waitFor()

    await expect
      .poll(async () => (await call(ownerCookie, "GET", `/api/studio/projects/${project.id}`)).project.status, {
        timeout: 15_000
      })
      .toBe("done")
    const detail = await call(ownerCookie, "GET", `/api/studio/projects/${project.id}`)
    expect(detail.team.members.find((member: { role: string }) => member.role === "writer")).toMatchObject({
      source: "person",
      agentId: beaId
    })
    expect(breakage).toEqual([])

    // The owner's project page names who the writer is.
    const [ownerName, ownerValue] = ownerCookie.split("=") as [string, string]
    await context.addCookies([{ name: ownerName, value: ownerValue, url: node.url }])
    await page.goto(`${node.url}/studio/${project.id}`)
    await page
      .locator("project-plan .team li")
      .filter({ hasText: "Bea Writer" })
      .filter({ hasText: "a person of the crew" })
      .waitFor()
  })
})
