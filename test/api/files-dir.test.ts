/**
 * FILES_DIR: the files every process of a node shares (uploads, project workspaces and outputs)
 * live there, and the data folder keeps only what one process keeps to itself. A second node
 * process on the same FILES_DIR (and a copy of the database: one database for several
 * processes is PostgreSQL's part) serves what the first wrote; a data folder laid out the old
 * way has its files moved under FILES_DIR at start, saying so once.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FileEntry } from "../../extensions/files/contract/records.ts"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { remoteDefault } from "../support/models.ts"
import { Client, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"

/** A multipart upload as a browser's form sends it; answers the stored entries. */
const upload = async (client: Client, name: string, content: string) => {
  const form = new FormData()
  form.append("file", new Blob([content]), name)
  const response = await fetch(`${client.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Array<FileEntry>
}

const download = (client: Client, id: string) => client.raw("GET", `/api/files/download?id=${encodeURIComponent(id)}`)

/** Signs the owner in on another process of the node, with the password they registered. */
const signIn = async (url: string, owner: Registered) => {
  const client = new Client(url)
  await run(
    client.api.authPublic.login({ payload: { email: owner.registration.email, password: owner.registration.password } })
  )
  return client
}

/**
 * What a data folder may hold beside the database: caches of this process's own, and the key it seals secrets
 * with when ENCRYPTION_KEY is unset (keys/, kernel/encryption-key.ts).
 */
const perProcess = /^(node\.db(-wal|-shm|-journal)?|plugin-bundles|keys)$/

const folders: Array<string> = []
const folder = (prefix: string) => {
  const made = mkdtempSync(join(tmpdir(), prefix))
  folders.push(made)
  return made
}
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true })
})

describe("a node with FILES_DIR elsewhere", () => {
  let models: OpenAiServer
  let node: TestNode
  let owner: Registered
  let second: ChildNode | undefined
  let notesId = ""
  const filesDir = folder("files-dir-")

  beforeAll(async () => {
    models = await startOpenAiServer()
    node = await startNode({ ...remoteDefault(models.baseUrl), filesDir: Option.some(filesDir) })
    owner = await registerOwner(node)
  })
  afterAll(async () => {
    await second?.close()
    await node.close()
    await models.close()
  })

  it("writes uploads, workspaces and outputs there, and nothing in its data folder but the database and caches", async () => {
    const [uploaded] = await upload(owner.client, "notes.txt", "shared notes")
    notesId = uploaded!.id
    expect(readFileSync(join(filesDir, "uploads", owner.being.id, "notes.txt"), "utf8")).toBe("shared notes")

    scriptStudio(models)
    const generator = await twoStepGenerator(owner.client)
    const started = await startGenerator(owner.client, generator.id, { topic: "green tea" })
    const detail = await untilSettled(owner.client, started.id)
    expect(detail.project.status).toBe("done")
    expect(readdirSync(join(filesDir, "projects", started.id, "workspace")).sort()).toEqual([
      "notes-on-green-tea.md",
      "report-on-green-tea.md"
    ])

    const output = await owner.client.raw("GET", detail.project.outputs[1]!.url)
    expect([output.status, output.text.includes("# Report on green tea")]).toEqual([200, true])
    const file = await download(owner.client, uploaded!.id)
    expect([file.status, file.text]).toEqual([200, "shared notes"])

    expect(readdirSync(node.dataDir).filter((name) => !perProcess.test(name))).toEqual([])
  })

  it("lets a second process on the same FILES_DIR serve what the first wrote, and the first what the second wrote", async () => {
    // An online copy of the first process's database: its own, as each runner keeps its own data folder.
    const copy = folder("files-dir-copy-")
    await node.runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql`VACUUM INTO ${join(copy, "node.db")}`)
    )
    // Staging is shared too: a process starting clears what a crash left long ago, never an upload another is
    // receiving.
    const staging = join(filesDir, "upload-staging")
    for (const name of ["crashed", "receiving"]) {
      mkdirSync(join(staging, name), { recursive: true })
      writeFileSync(join(staging, name, "0"), "part")
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000)
    utimesSync(join(staging, "crashed"), twoHoursAgo, twoHoursAgo)
    second = await startChildNode({ env: { DATA_DIR: copy, FILES_DIR: filesDir } })
    // Answering a request, the process has built its services (the upload service sweeps as it is built).
    const there = await signIn(second.url, owner)
    expect(readdirSync(staging).sort()).toEqual(["receiving"])

    const served = await download(there, notesId)
    expect([served.status, served.text]).toEqual([200, "shared notes"])

    const [fromSecond] = await upload(there, "second.txt", "written by the second process")
    const back = await download(owner.client, fromSecond!.id)
    expect([back.status, back.text]).toEqual([200, "written by the second process"])
    expect(readdirSync(copy).filter((name) => !perProcess.test(name))).toEqual([])
  })
})

describe("a data folder laid out before FILES_DIR", () => {
  it("has its stores moved under FILES_DIR at start, with one line in the log, and serves them from there", async () => {
    // The old layout: a node whose files sat in its data folder itself.
    const dataDir = folder("files-dir-old-")
    const old = await startNode({ filesDir: Option.some(dataDir) }, { dataDir })
    const owner = await registerOwner(old)
    const [uploaded] = await upload(owner.client, "kept.txt", "from before")
    await old.close()
    mkdirSync(join(dataDir, "projects", "proj_old", "workspace"), { recursive: true })
    writeFileSync(join(dataDir, "projects", "proj_old", "workspace", "draft.md"), "# Draft")
    mkdirSync(join(dataDir, "plugin-data", ".bundles"), { recursive: true })
    writeFileSync(join(dataDir, "plugin-data", ".bundles", "looker.json"), "{}")
    mkdirSync(join(dataDir, "plugin-data", "looker"))
    writeFileSync(join(dataDir, "plugin-data", "looker", "today.txt"), "tea")

    const node = await startChildNode({ env: { DATA_DIR: dataDir } })
    try {
      const files = join(dataDir, "files")
      expect(readFileSync(join(files, "uploads", owner.being.id, "kept.txt"), "utf8")).toBe("from before")
      expect(readFileSync(join(files, "projects", "proj_old", "workspace", "draft.md"), "utf8")).toBe("# Draft")
      expect(readFileSync(join(files, "plugin-data", "looker", "today.txt"), "utf8")).toBe("tea")
      // The bundle cache is the process's own: it stays in the data folder, out of the shared one.
      expect(existsSync(join(dataDir, "plugin-bundles", "looker.json"))).toBe(true)
      expect(existsSync(join(files, "plugin-data", ".bundles"))).toBe(false)
      expect(readdirSync(dataDir).filter((name) => !perProcess.test(name) && name !== "files")).toEqual([])
      const moved = node
        .output()
        .split("\n")
        .filter((line) => line.includes("from the data folder to FILES_DIR"))
      expect(moved).toHaveLength(1)
      for (const store of ["uploads", "projects", "plugin-data"]) expect(moved[0]).toContain(store)

      const client = await signIn(node.url, owner)
      const file = await download(client, uploaded!.id)
      expect([file.status, file.text]).toEqual([200, "from before"])
    } finally {
      await node.close()
    }
  })
})
