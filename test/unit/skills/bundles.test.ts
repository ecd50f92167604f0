/**
 * studio.author_skill_bundle and studio.author_module through the skill runtime over a real file
 * root: the bundle's files on disk (never installed, never imported: a source that would throw on
 * import is only text), the manifest checked by the node's own rules before a byte is written,
 * and every refusal answered authored false with its issues in `note` and nothing on disk.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"
import { checkDeliverable } from "../../../actors/project/pipeline/checks.ts"
import { planContract } from "../../../actors/project/pipeline/word-target.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

let skills: SkillHarness
beforeAll(async () => {
  skills = await startSkills()
})
afterAll(() => skills.close())

/** The pipeline's authored verdict over one call's outcome, as a task with that contract would get it. */
const authoredVerdict = (
  kind: "skill-bundle" | "module-bundle",
  skill: string,
  outcome: { ok: boolean; output?: unknown }
) =>
  checkDeliverable(planContract(Schema.decodeSync(DeliverableContract)({ authored: { kind } }), {}), {
    saved: [],
    skillResults: [{ skill, ok: outcome.ok, output: outcome.output }]
  })

const workspace = (projectId: string) => join(skills.dataDir, "projects", projectId, "workspace")
const filesUnder = (dir: string): Array<string> =>
  existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String).sort() : []

/** A source that would throw the moment anything imported or ran it. */
const booby = "throw new Error('imported!')\nexport const activate = () => {}\n"

const bundle = (fields: Record<string, unknown> = {}) => ({
  namespace: "weather",
  name: "Weather",
  description: "Forecasts from a public API.",
  skills: [{ id: "forecast", description: "The forecast for a place.", uses: ["network"] }],
  capabilities: [{ kind: "network", reason: "asks the forecast service" }],
  source: booby,
  ...fields
})

describe("studio.author_skill_bundle", () => {
  it("writes plugin.json, the proposed source and REVIEW.md into the project's workspace, installed false, nothing registered", async () => {
    const outcome = await skills.invoke("studio.author_skill_bundle", bundle(), { projectId: "p1", approved: false })
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        authored: true,
        installed: false,
        id: "@studio/weather",
        name: "Weather",
        path: "bundles/weather",
        files: ["bundles/weather/plugin.json", "bundles/weather/index.js", "bundles/weather/REVIEW.md"]
      }
    })
    const dir = join(workspace("p1"), "bundles", "weather")
    const manifest = JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8"))
    expect(manifest).toMatchObject({
      apiVersion: "1.0",
      id: "@studio/weather",
      namespace: "weather",
      main: "index.js",
      capabilities: [{ kind: "network", reason: "asks the forecast service" }],
      extensions: [{ kind: "skill", id: "forecast", uses: ["network"] }]
    })
    expect(readFileSync(join(dir, "index.js"), "utf8")).toBe(booby)
    const review = readFileSync(join(dir, "REVIEW.md"), "utf8")
    expect(review).toContain("**not installed**")
    expect(review).toContain("`weather.forecast`")
    expect(review).toMatch(/\*\*network\*\*: Make requests to other hosts\..*asks the forecast service/)
    expect((await skills.list()).map((skill) => skill.name)).not.toContain("weather.forecast")
    expect(authoredVerdict("skill-bundle", "studio.author_skill_bundle", outcome)).toMatchObject({
      ok: true,
      authored: [{ kind: "skill-bundle", id: "@studio/weather", name: "Weather", ok: true }]
    })
  })

  it("refuses a reserved namespace, authored false with the reason, nothing on disk", async () => {
    const outcome = await skills.invoke("studio.author_skill_bundle", bundle({ namespace: "web" }), { projectId: "p2" })
    expect(outcome).toMatchObject({
      ok: true,
      output: { authored: false, installed: false, id: null, path: null, files: [] }
    })
    expect(String((outcome.output as { note: string }).note)).toMatch(/^Nothing was written: .*"web" is reserved/)
    expect(filesUnder(workspace("p2"))).toEqual([])
    expect(authoredVerdict("skill-bundle", "studio.author_skill_bundle", outcome).failures).toMatchObject([
      { code: "authored" }
    ])
  })

  it("refuses a skill that uses a capability the bundle does not declare, nothing on disk", async () => {
    const outcome = await skills.invoke("studio.author_skill_bundle", bundle({ capabilities: [] }), { projectId: "p3" })
    expect(outcome.output).toMatchObject({ authored: false, files: [] })
    expect(String((outcome.output as { note: string }).note)).toMatch(
      /uses "network", which the plugin does not declare/
    )
    expect(filesUnder(workspace("p3"))).toEqual([])
  })

  it("refuses a folder that climbs out of the root, nothing written anywhere", async () => {
    const outcome = await skills.invoke("studio.author_skill_bundle", bundle({ folder: "../escape" }), {
      projectId: "p4"
    })
    expect(outcome.output).toMatchObject({ authored: false })
    expect(String((outcome.output as { note: string }).note)).toMatch(/climbs out/)
    expect(existsSync(join(skills.dataDir, "projects", "p4", "escape"))).toBe(false)
  })

  it("refuses a bad input before running: a namespace that is not one segment", async () => {
    const outcome = await skills.invoke("studio.author_skill_bundle", bundle({ namespace: "Weather Now" }), {
      projectId: "p5"
    })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/namespace must be one lowercase segment/)
    })
  })
})

const moduleManifest = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    apiVersion: "1.0",
    id: "@studio/tides",
    version: "0.1.0",
    namespace: "tides",
    name: "Tides",
    extensions: [{ kind: "module", id: "today", title: "Tides today", uses: [], document: "index.html" }],
    ...fields
  })
const page = "<!doctype html><title>Tides</title><p>High water at 14:02.</p>"

describe("studio.author_module", () => {
  it("validates, then writes the manifest and the bundle's files, installed false", async () => {
    const outcome = await skills.invoke(
      "studio.author_module",
      { manifest: moduleManifest(), files: { "index.html": page } },
      { projectId: "m1" }
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        authored: true,
        installed: false,
        id: "@studio/tides",
        name: "Tides",
        path: "modules/tides",
        files: ["modules/tides/plugin.json", "modules/tides/index.html"]
      }
    })
    expect(JSON.parse(readFileSync(join(workspace("m1"), "modules", "tides", "plugin.json"), "utf8"))).toMatchObject({
      extensions: [{ kind: "module", id: "today", document: "index.html" }]
    })
    expect(readFileSync(join(workspace("m1"), "modules", "tides", "index.html"), "utf8")).toBe(page)
    expect(authoredVerdict("module-bundle", "studio.author_module", outcome)).toMatchObject({
      ok: true,
      authored: [{ kind: "module-bundle", ok: true }]
    })
  })

  const refusedWith = async (projectId: string, input: Record<string, unknown>, pattern: RegExp) => {
    const outcome = await skills.invoke("studio.author_module", input, { projectId })
    expect(outcome).toMatchObject({
      ok: true,
      output: { authored: false, installed: false, id: null, path: null, files: [] }
    })
    expect(String((outcome.output as { note: string }).note)).toMatch(pattern)
    expect(filesUnder(workspace(projectId))).toEqual([])
  }

  it("refuses a manifest that is not JSON", () =>
    refusedWith(
      "m2",
      { manifest: "{ apiVersion: 1.0", files: { "index.html": page } },
      /^Nothing was written: plugin.json is not valid JSON/
    ))

  it("refuses a manifest the node's rules refuse, naming every issue", () =>
    refusedWith(
      "m3",
      { manifest: moduleManifest({ id: "Tides", version: "one" }), files: { "index.html": page } },
      /id: id must be npm-shaped.*version: version must be semver/
    ))

  it("refuses a module without a place, or whose document is missing or not HTML, or in the older module form", async () => {
    await refusedWith(
      "m4",
      { manifest: moduleManifest({ extensions: [] }), files: { "index.html": page } },
      /extensions: declare the module's place/
    )
    await refusedWith(
      "m5",
      { manifest: moduleManifest(), files: { "other.html": page } },
      /The module today names its document index.html, which is not among the bundle's files/
    )
    const script = [{ kind: "module", id: "today", title: "T", uses: [], document: "app.js" }]
    await refusedWith(
      "m6",
      { manifest: moduleManifest({ extensions: script }), files: { "app.js": "" } },
      /document must be an .html file/
    )
    const older = { module: { route: "today", title: "T", interface: "index.html" } }
    await refusedWith(
      "m9",
      { manifest: moduleManifest(older), files: { "index.html": page } },
      /Declare the module in extensions, as the installer reads it/
    )
  })

  it("refuses a reserved namespace and a file path out of the root", async () => {
    await refusedWith(
      "m7",
      { manifest: moduleManifest({ namespace: "studio" }), files: { "index.html": page } },
      /"studio" is reserved/
    )
    await refusedWith(
      "m8",
      { manifest: moduleManifest(), files: { "index.html": page, "../../../x.html": page } },
      /climbs out/
    )
    expect(existsSync(join(skills.dataDir, "projects", "x.html"))).toBe(false)
  })
})
