/**
 * The seeded generators that use the studio's new skills, each run end to end on a real node
 * against the scripted model server: the small web app (its build waits for the owner's "Do it",
 * which builds into the project's workspace, previewable through the project file route) and the
 * report exported as a Word document. (The 3D scene's run is proven in a browser:
 * test/e2e/scene3d.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
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

const component = "export function App() {\n  return <p>Split the bill fairly</p>\n}\n"

describe("the small web app seed", () => {
  it("runs to done while its build waits; 'Do it' builds into the project, previewable through the node", async () => {
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
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(detail.project.outputs.map((output) => output.path)).toContain("apps/README.md")

    const signals = await run(
      owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } })
    )
    const decision = signals.find(
      (signal) => signal.kind === "decision" && at(signal.action, "skill") === "code.scaffold_react_node"
    )!
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

    const after = await run(owner.client.api.studioProjects.getProject({ path: { id: started.id } }))
    expect(after.project.outputs).toContainEqual(
      expect.objectContaining({ path: "apps/web/dist/index.html", kind: "html" })
    )

    const preview = await owner.client.raw("GET", previewUrl)
    expect(preview.status).toBe(200)
    expect(preview.headers["content-type"]).toBe("text/html; charset=utf-8")
    expect(preview.headers["content-security-policy"]).toBe("sandbox allow-scripts")
    expect(preview.text).toContain("Split the bill fairly")
    expect(preview.text).toContain("<title>Tip splitter</title>")
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
