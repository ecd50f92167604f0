import { describe, expect, it } from "vitest"
import { mkdir, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { taskPromptOf } from "../../../actors/project/instruction.ts"
import { roleNeeds } from "../../../actors/project/team.ts"
import { wireToolName } from "../../../actors/project/task-loop.ts"
import { contentTypeOf, outputKindOf } from "../../../actors/project/contract/output-types.ts"
import { listWorkspace } from "../../../actors/project/outputs.ts"
import { generatorRunTitle, titleOf } from "../../../actors/project/projects.ts"
import { isMakeRequest } from "../../../actors/project/contract/make-request.ts"
import { tempDir } from "../../support/temp-dir.ts"
import { taskRecord } from "./task-record.ts"

const task = taskRecord

describe("the omnibar's make sentences", () => {
  it("accepts make, build, write and draft (after a polite opener) and nothing else", () => {
    for (const text of ["Write a poem", "  draft the memo", "Please build a site", "can you make a list", "BUILD it"])
      expect(isMakeRequest(text)).toBe(true)
    for (const text of ["what is tea?", "rewrite this", "makeover ideas", "I want to write", ""])
      expect(isMakeRequest(text)).toBe(false)
  })
})

describe("a brief's title", () => {
  it("is its first line, cut at a word near 80 characters", () => {
    expect(titleOf("A guide\nwith details")).toBe("A guide")
    const long = titleOf("word ".repeat(40))
    expect(long.length).toBeLessThanOrEqual(81)
    expect(long.endsWith("word…")).toBe(true)
  })
})

describe("outputs", () => {
  it("lists a workspace's deliverables: a built app's page, but no other build or VCS noise", async () => {
    const dir = tempDir("outputs")
    const write = async (path: string, text: string) => {
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await writeFile(join(dir, path), text)
    }
    await write("README.md", "# app")
    await write("apps/web/dist/index.html", "<!doctype html><p>built</p>")
    await write("apps/web/dist/assets/chunk.js", "x")
    await write("apps/web/src/App.tsx", "export {}")
    await write("node_modules/x/index.js", "x")
    await write(".git/HEAD", "ref")
    await write("dist/other.txt", "no page here")
    expect((await listWorkspace(dir)).map((file) => file.path)).toEqual([
      "apps/web/dist/index.html",
      "apps/web/src/App.tsx",
      "README.md"
    ])
  })

  it("take their kind and content type from the extension", () => {
    expect([
      outputKindOf("a/b.md"),
      outputKindOf("x.HTML"),
      outputKindOf("d.csv"),
      outputKindOf("i.png"),
      outputKindOf("s.ts"),
      outputKindOf("README")
    ]).toEqual(["markdown", "html", "data", "image", "code", "text"])
    expect(contentTypeOf("x.html")).toBe("text/html; charset=utf-8")
    expect(contentTypeOf("blob.bin")).toBe("application/octet-stream")
  })
})

describe("team needs and tool names", () => {
  it("merge a role's tasks (ignoring case) into one need with every skill", () => {
    expect(
      roleNeeds([
        task({ role: "Writer", skills: ["a"] }),
        task({ role: "writer ", skills: ["b", "a"] }),
        task({ role: "lead" })
      ])
    ).toEqual([
      { role: "Writer", skills: ["a", "b"] },
      { role: "lead", skills: [] }
    ])
  })
  it("send skill names without dots", () => {
    expect(wireToolName("files.write")).toBe("files__write")
  })
})

describe("a task's prompt", () => {
  it("quotes the dependencies a template does not read, and states the contract", () => {
    const notes = task({ key: "notes", title: "Notes", outputText: "The notes." })
    const prompt = taskPromptOf(
      task({ title: "Report" }),
      {
        file: "report.md",
        frontmatter: [],
        minSourceLinks: 2,
        requireSections: ["Summary"],
        forbidOpeners: [],
        minRetainedWords: 0.85,
        minRetainedLinks: 1,
        maxRepairs: 1
      },
      [notes],
      {}
    )
    expect(prompt).toContain("Task: Report")
    expect(prompt).toContain("- Save it as report.md.")
    expect(prompt).toContain("- Include these sections as markdown headings: Summary.")
    expect(prompt).toContain("## Work this builds on: Notes\nThe notes.")
  })
  it("renders a generator step's template with its dependencies' outputs instead of quoting them", () => {
    const notes = task({ key: "notes", title: "Notes", outputText: "The notes." })
    const template = {
      id: "report",
      title: "Report",
      role: "writer",
      skills: [],
      instruction: "From: {{steps.notes.output}} on {{inputs.topic}}",
      tier: "cheap" as const,
      dependsOn: [],
      outputKind: "markdown" as const
    }
    const prompt = taskPromptOf(task({ title: "Report", template }), null, [notes], { topic: "tea" })
    expect(prompt).toContain("From: The notes. on tea")
    expect(prompt).not.toContain("Work this builds on")
  })
})

describe("generator run titles", () => {
  it("name the generator and the first text given, so two runs differ", () => {
    expect(generatorRunTitle("Meeting summary", { meetingTitle: "Budget review", notes: "..." })).toBe(
      "Meeting summary: Budget review"
    )
    expect(generatorRunTitle("Meeting summary", { count: 3 })).toBe("Meeting summary")
    expect(generatorRunTitle("Blog post", { topic: "x".repeat(200) }).length).toBeLessThanOrEqual(81)
  })
})
