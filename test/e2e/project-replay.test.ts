/**
 * Run again from a step, in the browser: a brief's run (research, then the note) is done; on its page the owner runs
 * the note's step again with an instruction. The note's agent is told it, the research step is kept (badged, traced
 * `kept`, no model asked for it again), the run ends done with a new review, and the runs are listed with their
 * spend. At desktop and phone width.
 */
import { describe, expect, test } from "vitest"
import { call, isCall, type Person, viewports, watchForBreakage } from "./flows.ts"
import { ownerStudio } from "./owner-studio.ts"

const owner: Person = {
  displayName: "Rae Runner",
  handle: "rae",
  email: "rae@example.org",
  password: "rae-password-1"
}

const taskTitleOf = (request: { body: { messages?: ReadonlyArray<{ role: string; content?: unknown }> } }) =>
  /^Task: (.*)$/m.exec(String(request.body.messages?.find((message) => message.role === "user")?.content ?? ""))?.[1]

describe("running a project again from a step", () => {
  const studio = ownerStudio(owner)
  const { detail, gates, until } = studio

  for (const [label, size] of viewports) {
    test(`runs the note's step again with an instruction and keeps the research (${label})`, async () => {
      const page = await studio.open(size)
      const breakage = watchForBreakage(page)

      const project = (await call(studio.node.url, studio.cookie, "POST", "/api/studio/projects", {
        brief: `Write a short note on green tea (${label}).`
      })) as { id: string }
      await until(project.id, (found) => found.project.status === "done")
      const first = await detail(project.id)
      expect(first.tasks.map((task) => task.title)).toEqual(["Research the brief", "Write the note on green tea"])

      await page.goto(`${studio.node.url}/studio/${project.id}`)
      const plan = page.locator("project-plan")
      const [research, note] = [plan.locator("li.step").nth(0), plan.locator("li.step").nth(1)]
      await note.getByRole("button", { name: "Run again from here" }).waitFor()
      expect(await plan.getByRole("button", { name: "Run again from here" }).count()).toBe(2)
      const runs = page.locator("project-runs li")
      await runs.first().getByText("The first run.").waitFor()

      // The reviewer waits, so the page is seen with the run under way.
      gates.reviewer.close()
      const chatsBefore = studio.models.requestsFor("chat").length
      await note.getByRole("button", { name: "Run again from here" }).click()
      const form = note.getByRole("form", { name: "Run again from “Write the note on green tea”" })
      await form.getByLabel("What to change in this step (optional)").fill("Mention matcha.")
      const sent = page.waitForResponse(isCall("POST", `/api/studio/projects/${project.id}/replay`))
      await form.getByRole("button", { name: "Run again" }).click()
      const answer = await sent
      expect(answer.status()).toBe(200)
      expect(answer.request().postDataJSON()).toEqual({
        fromTaskId: first.tasks[1]!.id,
        instruction: "Mention matcha."
      })
      await page.getByText("The run goes again from that step").waitFor()
      await page.locator('project-place .status[data-status="review"]').waitFor()
      expect(await plan.getByRole("button", { name: "Run again from here" }).count()).toBe(0)
      await research.locator(".kept").getByText("Kept").waitFor()
      expect(await note.locator(".kept").count()).toBe(0)
      await page.locator('project-trace li.event[data-kind="kept"]').filter({ hasText: "Research the brief" }).waitFor()

      gates.reviewer.open()
      await page.locator('project-place .status[data-status="done"]').waitFor()
      await runs.nth(1).getByText("Again from “Write the note on green tea”, adding: “Mention matcha.”.").waitFor()
      expect(await runs.nth(1).getAttribute("data-kind")).toBe("replay")
      expect(await runs.nth(1).locator(".spend").textContent()).toMatch(/^spent \$\d/)

      // The models were asked for the note (told the instruction) and the review, never for the research.
      const made = studio.models.requestsFor("chat").slice(chatsBefore)
      expect(made.some((request) => taskTitleOf(request) === "Research the brief")).toBe(false)
      const noteCalls = made.filter((request) => taskTitleOf(request) === "Write the note on green tea")
      expect(noteCalls.length).toBeGreaterThan(0)
      expect(JSON.stringify(noteCalls[0]!.body.messages)).toContain(
        "The owner ran this step again and adds: Mention matcha."
      )
      expect(made.filter((request) => request.body.response_format?.json_schema?.name === "review")).toHaveLength(1)
      expect(breakage).toEqual([])
    })
  }
})
