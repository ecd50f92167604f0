/**
 * code.scaffold_react_node through the skill runtime over a real file root and the real esbuild:
 * the shipped template written where files are missing, built offline into one self-contained
 * page and a server bundle; a broken or escaping app answered built false with the log; the
 * approval gate in front of it; and the pipeline's BuildArtefact verdict read from its report.
 */
import * as Schema from "effect/Schema"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"
import { checkDeliverable } from "../../../actors/project/pipeline/checks.ts"
import { planContract } from "../../../actors/project/pipeline/word-target.ts"
import { startSkills, type FlatOutcome, type SkillHarness } from "../../support/skills.ts"

let skills: SkillHarness
beforeAll(async () => {
  skills = await startSkills()
})
afterAll(() => skills.close())

const workspace = (projectId: string) => join(skills.dataDir, "projects", projectId, "workspace")
const read = (projectId: string, path: string) => readFileSync(join(workspace(projectId), path), "utf8")
const scaffold = (projectId: string, input: Record<string, unknown>, approved = true) =>
  skills.invoke("code.scaffold_react_node", input, { projectId, approved })
const report = (outcome: FlatOutcome) =>
  outcome.output as {
    built: boolean
    previewPath: string | null
    previewUrl: string | null
    buildLog: string
    scaffolded: Array<string>
  }

const buildVerdict = (outcome: FlatOutcome) =>
  checkDeliverable(planContract(Schema.decodeSync(DeliverableContract)({ build: {} }), {}), {
    saved: [],
    skillResults: [{ skill: "code.scaffold_react_node", ok: outcome.ok, output: outcome.output }]
  })

describe("code.scaffold_react_node", () => {
  it("writes the template and builds it offline: one self-contained page and the server's bundle", async () => {
    const outcome = await scaffold("s1", { title: "Tally <counter>" })
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        built: true,
        previewPath: "apps/web/dist/index.html",
        previewUrl: "/api/files/project/s1/apps/web/dist/index.html"
      }
    })
    expect(report(outcome).scaffolded).toEqual([
      "README.md",
      "apps/server/src/server.js",
      "apps/web/src/App.jsx",
      "apps/web/src/main.jsx",
      "apps/web/src/styles.css"
    ])
    expect(report(outcome).buildLog, report(outcome).buildLog).toMatch(/^esbuild 0\.28\.2, offline/)
    expect(report(outcome).built, report(outcome).buildLog).toBe(true)
    expect(report(outcome).buildLog).toMatch(
      /apps\/web\/src\/main.jsx → one page, script [\d.]+ KB and styles [\d.]+ KB inlined/
    )
    const page = read("s1", "apps/web/dist/index.html")
    expect(page).toContain("<title>Tally &lt;counter&gt;</title>")
    expect(page).toContain("Clicked")
    expect(page).toContain(".app{")
    expect(page).not.toMatch(/<script[^>]+src=/)
    expect(read("s1", "apps/server/dist/server.mjs")).toContain("/api/health")
    expect(buildVerdict(outcome)).toMatchObject({
      ok: true,
      build: { built: true, entry: "apps/web/dist/index.html" },
      failures: []
    })
  })

  it("keeps an App.jsx already written, and takes one passed as app", async () => {
    await skills.invoke(
      "files.write",
      { path: "apps/web/src/App.jsx", content: "export const App = () => <p>Written first</p>\n" },
      { projectId: "s2" }
    )
    const kept = await scaffold("s2", { title: "Kept" })
    expect(report(kept).scaffolded).not.toContain("apps/web/src/App.jsx")
    expect(read("s2", "apps/web/dist/index.html")).toContain("Written first")
    const passed = await scaffold("s2", {
      title: "Passed",
      app: "export function App() { return <h2>Passed in</h2> }\n"
    })
    expect(report(passed)).toMatchObject({ built: true, scaffolded: ["apps/web/src/App.jsx"] })
    expect(read("s2", "apps/web/dist/index.html")).toContain("Passed in")
  })

  it("answers built false with esbuild's errors when the app does not compile; the verdict fails as 'empty'", async () => {
    const outcome = await scaffold("s3", { title: "Broken", app: "export function App() { return <p>unclosed }\n" })
    expect(report(outcome)).toMatchObject({ built: false, previewPath: null, previewUrl: null })
    expect(report(outcome).buildLog).toMatch(
      /The front end did not build: \d+ errors?\.\n.*apps\/web\/src\/App\.jsx:1:/s
    )
    expect(existsSync(join(workspace("s3"), "apps/web/dist/index.html"))).toBe(false)
    const verdict = buildVerdict(outcome)
    expect(verdict).toMatchObject({ ok: false, build: { built: false, entry: null } })
    expect(verdict.failures).toMatchObject([{ code: "empty" }])
    expect(verdict.build?.log).toContain("did not build")
  })

  it("refuses imports from outside the workspace and of other packages, so no host file ends up in a bundle", async () => {
    const escaping = await scaffold("s4", {
      title: "Escape",
      app: "import secret from '/etc/passwd'\nexport const App = () => <p>{secret}</p>\n"
    })
    expect(report(escaping)).toMatchObject({ built: false, previewPath: null })
    expect(report(escaping).buildLog).toMatch(/(leads outside the workspace|No loader is configured)/)
    expect(report(escaping).buildLog).not.toContain("root:x:0:0")
    const climbing = await scaffold("s5", {
      title: "Climb",
      app: "import text from '../../../../../../../../etc/hostname'\nexport const App = () => <p>{text}</p>\n"
    })
    expect(report(climbing)).toMatchObject({ built: false })
    const foreign = await scaffold("s6", {
      title: "Foreign",
      app: "import { build } from 'esbuild'\nexport const App = () => <p>{String(build)}</p>\n"
    })
    expect(report(foreign).buildLog).toContain(
      '"esbuild" cannot be imported here: the front end may import react and react-dom'
    )
  })

  it("is world-acting: an unapproved call asks the owner and writes nothing", async () => {
    const before = skills.asked.length
    const outcome = await scaffold("s7", { title: "Waiting" }, false)
    expect(outcome).toMatchObject({ ok: false, approval: { status: "waiting" } })
    expect(skills.asked.slice(before)).toMatchObject([
      { skill: "code.scaffold_react_node", input: { title: "Waiting" }, projectId: "s7" }
    ])
    expect(existsSync(workspace("s7"))).toBe(false)
  })

  it("refuses an empty title before anything is written", async () => {
    expect(await scaffold("s8", { title: " " })).toMatchObject({
      ok: false,
      error: expect.stringContaining("give the app a title")
    })
    expect(existsSync(workspace("s8"))).toBe(false)
  })
})
