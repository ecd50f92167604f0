import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { AuthoredRecord, DeliverableContract, DeliverableReport } from "../../../actors/project/contract/deliverable.ts"

const decodeContract = Schema.decodeUnknownEither(DeliverableContract)

describe("DeliverableContract", () => {
  it("fills the spec's defaults and leaves the optional parts absent", () => {
    expect(Schema.decodeUnknownSync(DeliverableContract)({})).toEqual({
      frontmatter: [],
      minSourceLinks: 0,
      requireSections: [],
      forbidOpeners: [],
      minRetainedWords: 0.85,
      minRetainedLinks: 1,
      maxRepairs: 1
    })
  })

  it("fills the defaults of a word budget, a build and an authored artefact", () => {
    const contract = Schema.decodeUnknownSync(DeliverableContract)({
      words: { target: 1000 },
      build: {},
      authored: { kind: "agent" }
    })
    expect(contract.words).toEqual({ target: 1000, tolerance: 0.2, floor: 0 })
    expect(contract.build).toEqual({
      entry: "apps/web/dist/index.html",
      skill: "code.scaffold_react_node",
      logChars: 900
    })
    expect(contract.authored).toEqual({ kind: "agent", min: 1 })
  })

  it("takes a templated word target as a string", () => {
    expect(
      Schema.decodeUnknownSync(DeliverableContract)({ words: { target: "{{inputs.length}}" } }).words?.target
    ).toBe("{{inputs.length}}")
  })

  it("refuses values outside the spec's ranges", () => {
    const refused = [
      { words: { target: 0 } },
      { words: { target: 10.5 } },
      { words: { target: "" } },
      { words: { target: 100, tolerance: 1.5 } },
      { words: { target: 100, floor: -1 } },
      { minSourceLinks: -1 },
      { minRetainedWords: 1.2 },
      { minRetainedLinks: -0.1 },
      { maxRepairs: 3 },
      { build: { logChars: 20_001 } },
      { authored: { kind: "agent", min: 25 } },
      { authored: { kind: "agent", min: 0 } },
      { authored: { kind: "theme" } }
    ]
    for (const input of refused) expect(Either.isLeft(decodeContract(input)), JSON.stringify(input)).toBe(true)
    expect(
      Either.isRight(
        decodeContract({ maxRepairs: 2, build: { logChars: 20_000 }, authored: { kind: "module-bundle", min: 24 } })
      )
    ).toBe(true)
  })
})

describe("DeliverableReport and AuthoredRecord", () => {
  it("default what the spec defaults", () => {
    expect(Schema.decodeUnknownSync(DeliverableReport)({ ok: true, words: 12, sourceLinks: 0 })).toEqual({
      ok: true,
      file: null,
      words: 12,
      sourceLinks: 0,
      failures: [],
      repairs: 0,
      revertedTo: null,
      build: null,
      authored: []
    })
    expect(Schema.decodeUnknownSync(AuthoredRecord)({ kind: "generator" })).toEqual({
      kind: "generator",
      id: null,
      name: "",
      ok: true,
      note: ""
    })
  })

  it("refuses an unknown failure code", () => {
    const report = { ok: false, words: 0, sourceLinks: 0, failures: [{ code: "style", message: "x" }] }
    expect(Either.isLeft(Schema.decodeUnknownEither(DeliverableReport)(report))).toBe(true)
  })
})
