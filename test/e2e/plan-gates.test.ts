/**
 * Plans and gates in the browser: while the run's first step works, the owner edits the plan on
 * the project page (adds a step and an approval gate, moves a step up, removes one), the run then
 * stops at the gate, and the owner approves it from Work (the run ends done) or rejects it with a
 * reason (the run fails with it). At desktop and phone width.
 */
import type { Page } from "playwright-core"
import { describe, expect, test } from "vitest"
import { call, type Person, viewports, watchForBreakage } from "./flows.ts"
import { ownerStudio } from "./owner-studio.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

describe("editing a plan and answering its gate", () => {
  const studio = ownerStudio(owner)
  const { detail, gates, open, until } = studio

  /** A project whose research step works (held) while the owner edits its plan in the page. */
  const editedProject = async (page: Page, brief: string) => {
    gates.agents.close()
    const project = (await call(studio.node.url, studio.cookie, "POST", "/api/studio/projects", { brief })) as {
      id: string
    }
    await until(project.id, (found) => found.tasks.some((task: any) => task.status === "running"))
    await page.goto(`${studio.node.url}/studio/${project.id}`)
    const plan = page.locator("project-plan")
    await plan.getByRole("button", { name: "Edit plan" }).click()
    const editor = plan.getByRole("form", { name: "Edit the plan" })
    await editor.getByRole("button", { name: "Add an approval gate" }).click()
    await editor.getByRole("button", { name: "Add a step" }).click()
    await editor.locator(".row").nth(2).getByLabel("Step").fill("Tidy the note")
    await editor.getByRole("button", { name: "Add a step" }).click()
    await editor.locator(".row").nth(3).getByLabel("Step").fill("Scrap this")
    await editor.getByRole("button", { name: "Move Tidy the note up" }).click()
    await editor.getByRole("button", { name: "Remove Scrap this" }).click()
    await editor.getByRole("button", { name: "Save the plan" }).click()
    await plan.getByText("The plan is saved").waitFor()
    await expect
      .poll(() => plan.locator(".steps .title").allTextContents())
      .toEqual(["Research the brief", "Write the note on green tea", "Tidy the note", "Approve the work so far"])
    await plan.locator('.step[data-kind="approval"]').getByText("Waits for your approval").waitFor()
    gates.agents.open()
    await until(project.id, (found) =>
      found.tasks.some((task: any) => task.kind === "approval" && task.status === "running")
    )
    // The tidy step waits on the gate: no model has been asked for it.
    expect((await detail(project.id)).tasks.find((task: any) => task.title === "Tidy the note")?.status).toBe("pending")
    await page.goto(`${studio.node.url}/work`)
    return { project, gate: page.locator('work-place .step[data-kind="approval"]') }
  }

  for (const [label, size] of viewports) {
    test(`edits the plan and ${label === "desktop" ? "approves" : "rejects"} its gate from Work (${label})`, async () => {
      const page = await open(size)
      const breakage = watchForBreakage(page)
      const { gate, project } = await editedProject(page, `Write a short note on green tea (${label}).`)
      const form = gate.getByRole("form", { name: "Approve or reject Approve the work so far" })
      if (label === "desktop") {
        await form.getByLabel("Note or reason").fill("Good to go.")
        await form.getByRole("button", { name: "Approve" }).click()
        await until(project.id, (found) => found.project.status === "done")
        const tasks = (await detail(project.id)).tasks
        expect(tasks.map((task: any) => task.status)).toEqual(["done", "done", "done", "done"])
      } else {
        await form.getByRole("button", { name: "Reject" }).click()
        await form.getByText("Say why you reject it").waitFor()
        await form.getByLabel("Note or reason").fill("The note forgets the temperature.")
        await form.getByRole("button", { name: "Reject" }).click()
        await until(project.id, (found) => found.project.status === "failed")
        await page.goto(`${studio.node.url}/studio/${project.id}`)
        await page
          .getByRole("region", { name: "Why it stopped" })
          .getByText("The note forgets the temperature.")
          .waitFor()
      }
      await page.goto(`${studio.node.url}/work`)
      await page.getByText("Nothing is open.").waitFor()
      expect(breakage).toEqual([])
    })
  }
})
