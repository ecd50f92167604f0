/**
 * A plugin's generator, widget, viewer and editor on a real node: the Notebook example installed
 * as its author would, its four extras listed with the plugin, its generator in the studio's list
 * (marked with the plugin) and runnable as a project, its widget and viewer documents framed like
 * a module's, its editor saving back the one file of the being's it was opened on (and refusing
 * the rest); a plugin's broken extras left out with a log line while the rest loads; uninstall
 * taking them away.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { encodeFileId } from "../../extensions/files/contract/file-ids.ts"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { skillsMain, writePluginFolder } from "../support/plugin-folder.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")
const notebook = encodeURIComponent("@example/notebook")

const printed: Array<string> = []
const originalWarn = console.warn
const originalLog = console.log
const originalWrite = process.stdout.write.bind(process.stdout)

let node: TestNode
let owner: Registered
let member: Registered

/** A plugin whose extras are broken but for one widget: it must load with its skill and that widget. */
const writeMixed = () => {
  const dir = writePluginFolder(
    join(node.dataDir, "plugins"),
    "mixed",
    {
      extensions: [
        { kind: "skill", id: "ping", uses: [] },
        { kind: "widget", id: "fine", title: "Fine", uses: [], document: "fine.html" },
        { kind: "widget", id: "missing", title: "Missing", uses: [], document: "nowhere.html" },
        {
          kind: "editor",
          id: "ungranted",
          title: "Ungranted",
          uses: [],
          document: "fine.html",
          fileTypes: { extensions: [".md"] }
        },
        {
          kind: "viewer",
          id: "typeless",
          title: "Typeless",
          uses: [],
          document: "fine.html",
          fileTypes: { extensions: [] }
        },
        {
          kind: "generator",
          id: "unknown-skill",
          title: "Unknown skill",
          uses: [],
          generator: {
            name: "Broken",
            description: "Names a skill nobody has.",
            inputsSchema: { type: "object", properties: {} },
            steps: [{ id: "only", title: "Only", role: "writer", skills: ["nobody.nothing"], instruction: "Write." }],
            outputKinds: ["markdown"]
          }
        }
      ]
    },
    skillsMain({ ping: "return { pong: true }" })
  )
  writeFileSync(
    join(node.dataDir, "plugins", dir, "fine.html"),
    "<!doctype html><html><head></head><body>fine</body></html>"
  )
}

/** A file in the being's uploads folder, and its id as a listing gives it. */
const upload = (who: Registered, path: string, content: string) => {
  const folder = join(node.dataDir, "uploads", who.being.id)
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, path), content)
  return { id: encodeFileId({ scope: "upload", projectId: null, path }), onDisk: join(folder, path) }
}

beforeAll(async () => {
  console.warn = (...args: Array<unknown>) => {
    printed.push(args.map(String).join(" "))
    originalWarn(...args)
  }
  console.log = (...args: Array<unknown>) => {
    printed.push(args.map(String).join(" "))
    originalLog(...args)
  }
  process.stdout.write = ((chunk: unknown, ...rest: Array<never>) => {
    printed.push(String(chunk))
    return (originalWrite as (...args: Array<unknown>) => boolean)(chunk, ...rest)
  }) as typeof process.stdout.write
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  cpSync(example, join(node.dataDir, "plugins", "notebook"), { recursive: true })
  writeMixed()
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: ["filesystem", "storage"] } })
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "mixed", granted: [] } }))
})
afterAll(async () => {
  console.warn = originalWarn
  console.log = originalLog
  process.stdout.write = originalWrite
  await node.close()
})

const save = (who: Registered, fileId: string, content: string, extensionId = "scratch", id = notebook) =>
  who.client.api.modules.saveEditedFile({ path: { id, extensionId }, payload: { fileId, content } })

describe("a plugin's generator, widget, viewer and editor", () => {
  it("are listed with their plugin, the viewer and editor with the file types they open", async () => {
    const plugins = await run(member.client.api.plugins.listPlugins())
    const contributions = plugins.find((plugin) => plugin.id === "@example/notebook")?.contributions
    expect(contributions).toEqual(
      expect.arrayContaining([
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
    )
  })

  it("puts the generator in the studio's list, marked with its plugin, and runs it as a project", async () => {
    const listed = await run(member.client.api.studioGenerators.listGenerators())
    const mine = listed.find((generator) => generator.id === "notebook.weekly-review")
    expect(mine).toMatchObject({
      name: "Weekly review",
      runs: 0,
      plugin: { id: "@example/notebook", name: "Notebook" }
    })
    const full = await run(member.client.api.studioGenerators.getGenerator({ path: { id: mine!.slug } }))
    expect(full.steps.map((step) => step.skills)).toEqual([["notebook.recent"], []])
    const project = await run(
      member.client.api.studioProjects.createProject({
        payload: { generatorId: "notebook.weekly-review", inputs: { notes: "Shipped the widget." } }
      })
    )
    expect(project).toMatchObject({ generatorId: "notebook.weekly-review" })
    const again = await run(member.client.api.studioGenerators.listGenerators())
    expect(again.find((generator) => generator.id === "notebook.weekly-review")?.runs).toBe(1)
  })

  it("serves the widget's and the viewer's documents framed like a module's", async () => {
    for (const id of ["count", "preview", "scratch"]) {
      const answer = await member.client.raw("GET", `/api/modules/${notebook}/${id}/document`)
      expect(answer.status).toBe(200)
      expect(answer.headers["content-security-policy"]).toContain("sandbox allow-scripts")
      expect(answer.headers["content-security-policy"]).toContain("connect-src 'none'")
      expect(answer.body).toContain("nodeBridge")
    }
    const widget = await member.client.api.modules.callModule({
      path: { id: notebook, extensionId: "count" },
      payload: { method: "storage.set", args: { key: "visits", value: 3 } }
    })
    expect(await run(widget)).toEqual({ result: { key: "visits" } })
  })

  it("leaves a plugin's broken extras out with a log line, the rest of it loaded", async () => {
    const plugins = await run(owner.client.api.plugins.listPlugins())
    const mixed = plugins.find((plugin) => plugin.id === "@test/mixed")
    expect(mixed?.status).toBe("active")
    expect(mixed?.contributions.map((contribution) => contribution.name).sort()).toEqual([
      "mixed.fine",
      "mixed.ping",
      "mixed.ungranted",
      "mixed.unknown-skill"
    ])
    // The generator decodes as a declaration but fails the generators' rules: the studio leaves it out.
    const listed = await run(owner.client.api.studioGenerators.listGenerators())
    expect(listed.map((generator) => generator.id)).not.toContain("mixed.unknown-skill")
    // Logfmt escapes the quotes.
    const lines = printed.join("\n").replaceAll('\\"', '"')
    expect(lines).toContain(`its widget "missing" is left out`)
    expect(lines).toContain(`its viewer "typeless" is left out`)
    expect(lines).toContain("plugin generator mixed.unknown-skill is left out")
  })
})

describe("an editor saving its file", () => {
  it("writes the being's own file of a declared type", async () => {
    const file = upload(member, "plan.md", "# Plan\n")
    expect(await run(save(member, file.id, "# Plan\n\n- ship it\n"))).toEqual({ size: 18 })
    expect(readFileSync(file.onDisk, "utf8")).toBe("# Plan\n\n- ship it\n")
  })

  it("refuses another being's file, an undeclared type, oversize and a viewer, changing nothing", async () => {
    const owners = upload(owner, "private.md", "owner's")
    // The id names a path in the caller's own uploads, so the owner's file reads as missing to the member.
    expect(await refused(save(member, owners.id, "mine now"))).toMatchObject({ status: 404 })
    const csv = upload(member, "table.csv", "a,b\n")
    expect(await refused(save(member, csv.id, "c,d\n"))).toMatchObject({
      status: 400,
      body: { error: "file_type_not_handled" }
    })
    const big = upload(member, "big.md", "small")
    expect(await refused(save(member, big.id, "x".repeat(256 * 1024 + 1)))).toMatchObject({ status: 413 })
    expect(await refused(save(member, big.id, "from a viewer", "preview"))).toMatchObject({
      status: 400,
      body: { error: "not_an_editor" }
    })
    // An editor that does not use filesystem may not write.
    expect(
      await refused(save(member, big.id, "ungranted", "ungranted", encodeURIComponent("@test/mixed")))
    ).toMatchObject({ status: 403, body: { error: "not_granted" } })
    expect(readFileSync(owners.onDisk, "utf8")).toBe("owner's")
    expect(readFileSync(csv.onDisk, "utf8")).toBe("a,b\n")
    expect(readFileSync(big.onDisk, "utf8")).toBe("small")
  })
})

describe("uninstalling the plugin", () => {
  it("takes its generator, widget, viewer and editor away", async () => {
    await run(owner.client.api.plugins.uninstallPlugin({ path: { id: notebook } }))
    const listed = await run(member.client.api.studioGenerators.listGenerators())
    expect(listed.map((generator) => generator.id)).not.toContain("notebook.weekly-review")
    for (const id of ["count", "preview", "scratch"]) {
      expect((await member.client.raw("GET", `/api/modules/${notebook}/${id}/document`)).status).toBe(404)
    }
  })
})
