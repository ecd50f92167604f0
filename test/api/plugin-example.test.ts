/**
 * The sample plugin in examples/plugins/notebook, as its author would use it: copied into the
 * node's plugin folder, installed through the real route with its grant, and called through
 * POST /api/studio/skills/invoke, each being's notes kept apart.
 */
import { cpSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  cpSync(example, join(node.dataDir, "plugins", "notebook"), { recursive: true })
})
afterAll(() => node.close())

const invoke = (who: Registered, name: string, input: Record<string, unknown>) =>
  run(who.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

describe("the Notebook example plugin", () => {
  it("is listed as available with its capability, and refused without its grant", async () => {
    const available = await run(owner.client.api.plugins.availablePlugins())
    expect(available.plugins.find((plugin) => plugin.dir === "notebook")).toMatchObject({
      installed: false,
      manifest: {
        id: "@example/notebook",
        capabilities: [
          { kind: "filesystem", reason: "keeps each person's notes in its own data folder" },
          { kind: "storage", reason: "remembers which tag each person's notebook page shows" }
        ]
      }
    })
    const answer = await refused(owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: [] } }))
    expect(answer).toMatchObject({
      status: 400,
      body: { error: "missing_grants", details: { missing: ["filesystem", "storage"] } }
    })
  })

  it("installs with its grants and publishes its skills and its module", async () => {
    const installed = await run(
      owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: ["filesystem", "storage"] } })
    )
    expect(installed).toMatchObject({ id: "@example/notebook", status: "active", granted: ["filesystem", "storage"] })
    expect(installed.contributions).toEqual([
      { kind: "skill", name: "notebook.jot", title: "Jot a note", worldActing: false },
      { kind: "skill", name: "notebook.recent", title: "Recent notes", worldActing: false },
      { kind: "integration", name: "notebook.journal", title: "Notebook journal" },
      { kind: "integration", name: "notebook.inbox", title: "Notebook inbox" },
      { kind: "module", name: "notebook.notes", title: "Notebook", icon: expect.any(String) },
      { kind: "generator", name: "notebook.weekly-review", title: "Weekly review" },
      { kind: "widget", name: "notebook.count", title: "Notebook count" },
      {
        kind: "viewer",
        name: "notebook.preview",
        title: "Notebook preview",
        fileTypes: { extensions: [".md", ".txt"], mediaTypes: ["text/markdown"] }
      },
      {
        kind: "editor",
        name: "notebook.scratch",
        title: "Notebook editor",
        fileTypes: { extensions: [".md", ".txt"], mediaTypes: [] }
      }
    ])
    const skills = await run(member.client.api.studioSkills.listSkills())
    expect(skills.find((skill) => skill.name === "notebook.jot")).toMatchObject({
      family: "notebook",
      worldActing: false,
      pluginId: "@example/notebook",
      inputSchema: { type: "object", required: ["text"], properties: { text: { type: "string" } } }
    })
  })

  it("jots and reads back notes through the invoke route, each being's own", async () => {
    expect(await invoke(owner, "notebook.jot", { text: "Buy oolong", tag: "errands" })).toMatchObject({
      ok: true,
      output: { saved: true, count: 1 }
    })
    expect(await invoke(owner, "notebook.jot", { text: "Call Ada" })).toMatchObject({
      ok: true,
      output: { saved: true, count: 2 }
    })
    expect(await invoke(member, "notebook.jot", { text: "Member's own" })).toMatchObject({
      ok: true,
      output: { count: 1 }
    })

    const recent = await invoke(owner, "notebook.recent", {})
    expect(recent).toMatchObject({
      ok: true,
      output: {
        notes: [
          { text: "Call Ada", tag: null },
          { text: "Buy oolong", tag: "errands" }
        ]
      }
    })
    expect(await invoke(owner, "notebook.recent", { tag: "errands" })).toMatchObject({
      ok: true,
      output: { notes: [{ text: "Buy oolong" }] }
    })
    expect(await invoke(member, "notebook.recent", { limit: 10 })).toMatchObject({
      ok: true,
      output: { notes: [{ text: "Member's own" }] }
    })
  })

  it("refuses input its schema refuses, before running", async () => {
    expect(await invoke(owner, "notebook.jot", { text: "" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("The input does not fit notebook.jot")
    })
    expect(await invoke(owner, "notebook.recent", { limit: 500 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("notebook.recent")
    })
  })
})
