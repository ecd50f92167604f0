import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { checkDeliverable, type SkillResult, type TaskArtefact } from "../../../actors/project/pipeline/checks.ts"
import { DeliverableContract } from "../../../actors/project/contract/deliverable.ts"
import { planContract } from "../../../actors/project/pipeline/word-target.ts"

const contract = (fields: Record<string, unknown>, inputs: unknown = {}) =>
  planContract(Schema.decodeUnknownSync(DeliverableContract)(fields), inputs)

const saved = (path: string, content: string): TaskArtefact => ({ saved: [{ path, content }] })

const check = (fields: Record<string, unknown>, artefact: TaskArtefact, inputs: unknown = {}) =>
  checkDeliverable(contract(fields, inputs), artefact)

const codes = (fields: Record<string, unknown>, artefact: TaskArtefact, inputs: unknown = {}) =>
  check(fields, artefact, inputs).failures.map((failure) => failure.code)

const words = (count: number, word = "word") => Array.from({ length: count }, () => word).join(" ")

describe("the file check", () => {
  it("passes when the named file was saved, whatever the path's leading ./ or /", () => {
    const report = check({ file: "out/report.md" }, saved("./out/report.md", "Hello there."))
    expect(report).toMatchObject({ ok: true, file: "out/report.md", words: 2, failures: [] })
  })

  it("fails with 'file' and names what was saved instead", () => {
    const report = check({ file: "report.md" }, saved("notes.md", "Hello"))
    expect(report.ok).toBe(false)
    expect(report.file).toBeNull()
    expect(report.failures).toEqual([{ code: "file", message: expect.stringContaining("report.md") }])
    expect(report.failures[0]?.message).toContain("notes.md")
  })

  it("without a named file, checks the first file saved, and fails when nothing was saved", () => {
    const artefact: TaskArtefact = {
      saved: [
        { path: "a.md", content: "One two three." },
        { path: "b.md", content: "Four." }
      ]
    }
    expect(check({}, artefact)).toMatchObject({ ok: true, file: "a.md", words: 3 })
    expect(codes({}, { saved: [] })).toEqual(["file"])
  })

  it("reads the last content saved at a path", () => {
    const artefact: TaskArtefact = {
      saved: [
        { path: "a.md", content: "" },
        { path: "a.md", content: "Now written." }
      ]
    }
    expect(check({ file: "a.md" }, artefact)).toMatchObject({ ok: true, words: 2 })
  })
})

describe("the empty check", () => {
  it("fails an empty or whitespace file with 'empty' alone", () => {
    const fields = { file: "a.md", words: { target: 100 }, minSourceLinks: 2, requireSections: ["Intro"] }
    expect(codes(fields, saved("a.md", ""))).toEqual(["empty"])
    expect(codes(fields, saved("a.md", " \n\t\n"))).toEqual(["empty"])
  })

  it("counts a file of frontmatter alone as empty", () => {
    expect(codes({ file: "a.md" }, saved("a.md", "---\ntitle: x\n---\n\n"))).toEqual(["empty"])
  })

  it("does not count a file holding only a code block as empty", () => {
    expect(codes({ file: "a.md" }, saved("a.md", "```js\nconsole.log(1)\n```\n"))).toEqual([])
  })
})

describe("the words check", () => {
  const budget = { file: "a.md", words: { target: 1000 } }

  it("passes within target ± the default 20%, inclusive, and fails outside it with 'words'", () => {
    expect(codes(budget, saved("a.md", words(800)))).toEqual([])
    expect(codes(budget, saved("a.md", words(1200)))).toEqual([])
    expect(codes(budget, saved("a.md", words(799)))).toEqual(["words"])
    expect(codes(budget, saved("a.md", words(1201)))).toEqual(["words"])
  })

  it("says how many words there are and which range is wanted", () => {
    const [failure] = check(budget, saved("a.md", words(420))).failures
    expect(failure?.message).toBe("a.md has 420 words; it needs between 800 and 1200 (a target of 1000 ± 20%).")
  })

  it("honours a tolerance of its own", () => {
    const tight = { file: "a.md", words: { target: 300, tolerance: 0.1 } }
    expect(codes(tight, saved("a.md", words(270)))).toEqual([])
    expect(codes(tight, saved("a.md", words(330)))).toEqual([])
    expect(codes(tight, saved("a.md", words(269)))).toEqual(["words"])
    expect(codes(tight, saved("a.md", words(331)))).toEqual(["words"])
  })

  it("holds a floor above the tolerance's lower end", () => {
    const floored = { file: "a.md", words: { target: 100, tolerance: 0.5, floor: 90 } }
    expect(codes(floored, saved("a.md", words(89)))).toEqual(["words"])
    expect(codes(floored, saved("a.md", words(90)))).toEqual([])
    expect(check(floored, saved("a.md", words(60))).failures[0]?.message).toContain("between 90 and 150")
  })

  it("renders a templated target against the inputs", () => {
    const templated = { file: "a.md", words: { target: "{{inputs.length}}", tolerance: 0 } }
    expect(codes(templated, saved("a.md", words(50)), { length: 50 })).toEqual([])
    expect(codes(templated, saved("a.md", words(51)), { length: 50 })).toEqual(["words"])
  })

  it("is disabled, not failed, by a template that does not render to a positive number", () => {
    const templated = { file: "a.md", words: { target: "{{inputs.length}}" } }
    expect(codes(templated, saved("a.md", words(3)), { length: "medium" })).toEqual([])
  })

  it("counts the body's prose: not frontmatter, fenced code, link addresses, tags or comments", () => {
    const content = [
      "---",
      "title: Ten words of frontmatter that are never counted at all",
      "---",
      "# A heading",
      "",
      "Read [the report](https://example.org/a/very/long/path) and https://example.com/bare today.",
      "",
      "```python",
      "def not_prose(): return 'many words in code'",
      "```",
      "<!-- a comment that says many things -->",
      "It's well-known: e.g. 3.14 <br> costs."
    ].join("\n")
    // A heading (2) + Read the report and today (5) + It's well-known e.g 3.14 costs (5)
    expect(check({ file: "a.md" }, saved("a.md", content)).words).toBe(12)
  })
})

describe("the frontmatter check", () => {
  const fields = { file: "a.md", frontmatter: ["title", "tags", "draft"] }

  it("passes when every required key has a value (false counts as one)", () => {
    const content = "---\ntitle: Moths\ntags: [night, insects]\ndraft: false\n---\nBody text."
    expect(codes(fields, saved("a.md", content))).toEqual([])
  })

  it("fails with 'frontmatter' naming the keys that are missing or blank", () => {
    const content = '---\ntitle: "  "\ntags: []\nauthor: me\n---\nBody text.'
    const [failure] = check(fields, saved("a.md", content)).failures
    expect(failure).toEqual({ code: "frontmatter", message: "a.md's frontmatter has no value for title, tags, draft." })
  })

  it("fails when there is no frontmatter, or it is not valid YAML, or not a mapping", () => {
    expect(codes(fields, saved("a.md", "Body only."))).toEqual(["frontmatter"])
    const invalid = check(fields, saved("a.md", "---\ntitle: [unclosed\n---\nBody."))
    expect(invalid.failures[0]?.message).toContain("not valid YAML")
    expect(codes(fields, saved("a.md", "---\n- a\n- b\n---\nBody."))).toEqual(["frontmatter"])
  })

  it("does not look at frontmatter when no key is required", () => {
    expect(codes({ file: "a.md" }, saved("a.md", "---\ntitle: [unclosed\n---\nBody."))).toEqual([])
  })
})

describe("the sources check", () => {
  it("counts distinct http(s) links in the body, one per address", () => {
    const content = [
      "---",
      "source: https://frontmatter.example/not-counted",
      "---",
      "See [one](https://a.example/x) and <https://A.example/x#part>, also https://b.example/y.",
      "Again (https://b.example/y) and http://c.example, and https://en.wikipedia.org/wiki/Moth_(disambiguation).",
      "```",
      "curl https://code.example/ignored",
      "```",
      "ftp://d.example is not a web link."
    ].join("\n")
    expect(check({ file: "a.md" }, saved("a.md", content)).sourceLinks).toBe(4)
    expect(codes({ file: "a.md", minSourceLinks: 4 }, saved("a.md", content))).toEqual([])
    expect(codes({ file: "a.md", minSourceLinks: 5 }, saved("a.md", content))).toEqual(["sources"])
  })

  it("says how many it found and how many are needed", () => {
    const report = check(
      { file: "a.md", minSourceLinks: 3 },
      saved("a.md", "Only https://a.example/ and https://a.example.")
    )
    expect(report.sourceLinks).toBe(1)
    expect(report.failures[0]?.message).toContain("links 1 distinct source; it needs at least 3")
  })
})

describe("the sections check", () => {
  const fields = { file: "a.md", requireSections: ["Summary", "Sources"] }

  it("passes with each section as a heading, whatever the case, level, numbering or colon", () => {
    expect(codes(fields, saved("a.md", "# Title\n\n## summary\nText.\n\n### 2. **SOURCES**:\n- x"))).toEqual([])
    expect(codes(fields, saved("a.md", "Summary\n=======\nText.\n\nSources\n-------\n- x"))).toEqual([])
  })

  it("fails with 'sections' naming the missing ones; a word in prose or code is no heading", () => {
    const content = "## Summary\nThe sources are below.\n\n```\n## Sources\n```\n"
    const [failure] = check(fields, saved("a.md", content)).failures
    expect(failure?.code).toBe("sections")
    expect(failure?.message).toContain('"Sources"')
    expect(failure?.message).not.toContain('"Summary"')
  })
})

describe("the forbidden openers check", () => {
  const fields = { file: "a.md", forbidOpeners: ["In today's", "As"] }

  it("fails with 'voice' when the first paragraph starts with a forbidden opener, ignoring case and quotes", () => {
    const content =
      "---\ntitle: x\n---\n# Moths\n\n![cover](c.png)\n\n**IN TODAY’S** fast world, moths matter.\n\nAs we saw."
    const [failure] = check(fields, saved("a.md", content)).failures
    expect(failure?.code).toBe("voice")
    expect(failure?.message).toContain('"In today\'s"')
  })

  it("matches at a word boundary and only at the opening", () => {
    expect(codes(fields, saved("a.md", "# Moths\n\nAsia has many moths.\n\nAs a result, more."))).toEqual([])
    expect(codes(fields, saved("a.md", "> As a rule, moths fly at night."))).toEqual(["voice"])
  })
})

describe("the revision check", () => {
  const earlier = `${words(100, "moth")} https://a.example/1 https://b.example/2`

  it("passes a revision that keeps enough words and every link", () => {
    const revised = `${words(90, "moth")} https://a.example/1 https://b.example/2 https://c.example/3`
    const report = check({ file: "a.md", revises: "a.md" }, { ...saved("a.md", revised), earlier })
    expect(report).toMatchObject({ ok: true, revertedTo: null })
  })

  it("fails with 'regression' and reverts when the revision loses words", () => {
    const revised = `${words(50, "moth")} https://a.example/1 https://b.example/2`
    const report = check({ file: "a.md", revises: "a.md" }, { ...saved("a.md", revised), earlier })
    expect(report.failures.map((failure) => failure.code)).toEqual(["regression"])
    expect(report.revertedTo).toBe("a.md")
    expect(report.failures[0]?.message).toContain("(50%)")
  })

  it("fails when the revision drops a source link, and names it", () => {
    const revised = `${words(100, "moth")} https://a.example/1`
    const report = check({ file: "draft-2.md", revises: "draft.md" }, { ...saved("draft-2.md", revised), earlier })
    expect(report.revertedTo).toBe("draft.md")
    expect(report.failures[0]?.message).toContain("https://b.example/2")
  })

  it("takes its thresholds from the contract", () => {
    const revised = `${words(50, "moth")} https://a.example/1`
    const lenient = { file: "a.md", revises: "a.md", minRetainedWords: 0.5, minRetainedLinks: 0.5 }
    expect(check(lenient, { ...saved("a.md", revised), earlier }).ok).toBe(true)
  })

  it("reverts an emptied revision as well as calling it empty", () => {
    const report = check({ revises: "a.md" }, { ...saved("a.md", ""), earlier })
    expect(report.failures.map((failure) => failure.code)).toEqual(["empty", "regression"])
    expect(report.revertedTo).toBe("a.md")
  })

  it("has nothing to compare when there was no earlier version", () => {
    expect(check({ revises: "a.md" }, { ...saved("a.md", "New."), earlier: null }).ok).toBe(true)
  })
})

describe("the build check", () => {
  const build = (output: unknown, ok = true): SkillResult => ({ skill: "code.scaffold_react_node", ok, output })

  it("passes on the build skill's own report of a build, with no file to look at", () => {
    const report = check(
      { build: {} },
      {
        saved: [],
        skillResults: [build({ built: true, previewPath: "apps/web/dist/index.html", buildLog: "vite built in 2s" })]
      }
    )
    expect(report).toMatchObject({
      ok: true,
      file: null,
      build: { built: true, entry: "apps/web/dist/index.html", log: "vite built in 2s" }
    })
  })

  it("fails with 'empty' and the tail of the log when the skill reports no build", () => {
    const log = `${"x".repeat(1000)}ERROR: cannot resolve ./App`
    const report = check(
      { build: { logChars: 26 } },
      { saved: [], skillResults: [build({ built: false, previewPath: null, buildLog: log })] }
    )
    expect(report.ok).toBe(false)
    expect(report.build).toEqual({ built: false, entry: null, log: "ERROR: cannot resolve ./App".slice(-26) })
    expect(report.failures).toEqual([
      { code: "empty", message: expect.stringContaining("ERROR: cannot resolve ./App".slice(-26)) }
    ])
  })

  it("believes the report, not the files: saved files do not make a build, a later report supersedes", () => {
    const files = [{ path: "apps/web/dist/index.html", content: "<html>built, says the agent</html>" }]
    expect(codes({ build: {} }, { saved: files })).toEqual(["empty"])
    expect(codes({ build: {} }, { saved: files, skillResults: [build(undefined, false)] })).toEqual(["empty"])
    expect(codes({ build: {} }, { saved: [], skillResults: [build({ previewPath: "x" })] })).toEqual(["empty"])
    const retried = [
      build({ built: false, buildLog: "fail" }),
      build({ built: true, previewPath: "apps/web/dist/index.html" })
    ]
    expect(check({ build: {} }, { saved: [], skillResults: retried }).ok).toBe(true)
  })

  it("reads only the skill the contract names", () => {
    const other: SkillResult = { skill: "code.execute", ok: true, output: { built: true, previewPath: "x" } }
    expect(codes({ build: { skill: "code.scaffold_react_node" } }, { saved: [], skillResults: [other] })).toEqual([
      "empty"
    ])
  })

  it("with logChars 0 keeps no log", () => {
    expect(
      check({ build: { logChars: 0 } }, { saved: [], skillResults: [build({ built: false, buildLog: "boom" })] }).build
        ?.log
    ).toBe("")
  })
})

describe("the authored check", () => {
  const author = (output: unknown, skill = "studio.author_agent"): SkillResult => ({ skill, ok: true, output })

  it("counts the authoring skill's own reports of authored true against min", () => {
    const skillResults = [
      author({ authored: true, id: "agent-1", name: "Ada" }),
      author({ authored: false, note: "unknown skill web.teleport" }),
      author({ authored: true, id: "agent-2", name: "Bo" })
    ]
    const report = check({ authored: { kind: "agent", min: 2 } }, { saved: [], skillResults })
    expect(report.ok).toBe(true)
    expect(report.authored).toEqual([
      { kind: "agent", id: "agent-1", name: "Ada", ok: true, note: "" },
      { kind: "agent", id: null, name: "", ok: false, note: "unknown skill web.teleport" },
      { kind: "agent", id: "agent-2", name: "Bo", ok: true, note: "" }
    ])
  })

  it("fails with 'authored' when too few were authored, quoting the refusals", () => {
    const skillResults = [
      author({ authored: false, note: "unknown skill web.teleport" }),
      { skill: "studio.author_agent", ok: false, error: "timed out" }
    ]
    const report = check({ authored: { kind: "agent" } }, { saved: [], skillResults })
    expect(report.failures).toEqual([
      { code: "authored", message: expect.stringContaining("unknown skill web.teleport; timed out") }
    ])
  })

  it("takes no claim but the skill's: a saved file or another skill's report does not count", () => {
    const skillResults = [author({ authored: true }, "studio.author_generator"), author({ id: "x" })]
    expect(
      codes({ authored: { kind: "agent" } }, { saved: [{ path: "agent.json", content: "{}" }], skillResults })
    ).toEqual(["authored"])
    expect(check({ authored: { kind: "agent" } }, { saved: [] }).failures[0]?.message).toContain("never called")
  })

  it("uses the kind's own authoring skill unless the contract names one", () => {
    const bundle = author({ authored: true }, "studio.author_module")
    expect(check({ authored: { kind: "module-bundle" } }, { saved: [], skillResults: [bundle] }).ok).toBe(true)
    expect(
      codes({ authored: { kind: "module-bundle", skill: "acme.author" } }, { saved: [], skillResults: [bundle] })
    ).toEqual(["authored"])
  })
})

describe("a report of several failures", () => {
  it("lists each failing check once, in order, and is not ok", () => {
    const fields = {
      file: "a.md",
      words: { target: 500 },
      minSourceLinks: 1,
      requireSections: ["Sources"],
      forbidOpeners: ["Once"]
    }
    expect(codes(fields, saved("a.md", "Once upon a time."))).toEqual(["words", "sources", "sections", "voice"])
  })
})
