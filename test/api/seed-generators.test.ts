/**
 * The seeded generators that use the studio's new skills, each run end to end on a real node
 * against the scripted model server: the small web app (its run waits for the build's "Do it", which
 * builds into the project's workspace and hands the report back to the step, done only when built and previewable
 * through the project file route) and the
 * report exported as a Word document. (The 3D scene's run is proven in a browser:
 * test/e2e/scene3d.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { at } from "../support/json.ts"
import { remoteDefault } from "../support/models.ts"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startGenerator, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode(remoteDefault(models.baseUrl))
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
})

const seeded = async (name: string) => {
  const generators = await run(owner.client.api.studioGenerators.listGenerators())
  return generators.find((generator) => generator.name === name)!
}

/** The step that builds the app (the generator's other steps come before it). */
const buildStep = (detail: ProjectDetail) => detail.tasks.find((task) => task.title.startsWith("Build the app"))

const component = "export function App() {\n  return <p>Split the bill fairly</p>\n}\n"

describe("the small web app seed", () => {
  it("waits for its build's 'Do it', then goes on to done with the app built, previewable through the node", async () => {
    models.reset()
    scriptStudio(models, {
      extraCall: (title) =>
        title === "Build the app Tip splitter"
          ? { name: "code__scaffold_react_node", arguments: { title: "Tip splitter", app: component } }
          : null,
      write: (title) =>
        title === "Build the app Tip splitter"
          ? {
              path: "apps/README.md",
              content:
                "# Tip splitter\n\n## What it does\n\nSplits a bill.\n\n## How to run it\n\nnode apps/server/dist/server.mjs\n"
            }
          : undefined
    })
    const generator = await seeded("Small web app")
    const started = await startGenerator(owner.client, generator.id, {
      appName: "Tip splitter",
      idea: "Split a restaurant bill between friends."
    })
    // The run does not end while the build waits: its step waits on the decision.
    const waiting = await untilSettled(owner.client, started.id, (detail) => buildStep(detail)?.status === "waiting")
    expect(waiting.project.status).toBe("running")
    const decision = (
      await run(owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    ).find((signal) => signal.id === buildStep(waiting)!.decisionSignalId)!
    expect(decision.action).toMatchObject({ kind: "skill.invoke", input: { title: "Tip splitter", app: component } })
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: decision.id }, payload: { optionId: "do-it" } })
    )
    const previewUrl = `/api/files/project/${started.id}/apps/web/dist/index.html`
    expect(at(answered, "actionResult", "output", "output")).toMatchObject({
      built: true,
      previewPath: "apps/web/dist/index.html",
      previewUrl
    })

    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(buildStep(detail)!.output).toMatchObject({
      ok: true,
      build: { built: true, entry: "apps/web/dist/index.html" }
    })
    expect(detail.project.outputs).toContainEqual(
      expect.objectContaining({ path: "apps/web/dist/index.html", kind: "html" })
    )
    expect(detail.project.outputs.map((output) => output.path)).toContain("apps/README.md")

    const preview = await owner.client.raw("GET", previewUrl)
    expect(preview.status).toBe(200)
    expect(preview.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(preview.headers["content-security-policy"]).toBe("sandbox allow-scripts")
    expect(preview.text).toContain("Split the bill fairly")
    expect(preview.text).toContain("<title>Tip splitter</title>")
  })

  it("is not done when the owner says no: its deliverable needs the built app", async () => {
    models.reset()
    scriptStudio(models, {
      extraCall: (title) =>
        title === "Build the app Tip splitter"
          ? { name: "code__scaffold_react_node", arguments: { title: "No tips", app: component } }
          : null
    })
    const generator = await seeded("Small web app")
    const started = await startGenerator(owner.client, generator.id, {
      appName: "Tip splitter",
      idea: "Split a bill, no tips."
    })
    const waiting = await untilSettled(owner.client, started.id, (detail) => buildStep(detail)?.status === "waiting")
    await run(
      owner.client.api.desktop.answerSignal({
        path: { id: buildStep(waiting)!.decisionSignalId! },
        payload: { optionId: "no" }
      })
    )
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("failed")
    expect(buildStep(detail)!.error).toContain("code.scaffold_react_node")
  })
})

describe("the report seed", () => {
  it("runs to done with the report as Markdown and as a Word document", async () => {
    models.reset()
    const report =
      "# Async updates\n\n## Summary\n\nMove it.\n\n## Findings\n\nTeams save an hour, per https://example.org/study.\n\n## Recommendation\n\nTry it for a month.\n"
    scriptStudio(models, {
      extraCall: (title) =>
        title === "Write the report"
          ? { name: "docs__write_docx", arguments: { path: "report.docx", content: report } }
          : null,
      write: (title) => (title === "Write the report" ? { path: "report.md", content: report } : undefined)
    })
    const generator = await seeded("Report as a document")
    const started = await startGenerator(owner.client, generator.id, {
      question: "Should our weekly meeting become an async update?"
    })
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    const docx = detail.project.outputs.find((output) => output.path === "report.docx")!
    expect(docx).toMatchObject({ kind: "docx" })
    const file = await owner.client.raw("GET", docx.url)
    expect(file.status).toBe(200)
    expect(file.text.startsWith("PK")).toBe(true)
    expect(detail.project.outputs.map((output) => output.path)).toEqual(
      expect.arrayContaining(["report.md", "research/notes.md", "report.docx"])
    )
  })
})
