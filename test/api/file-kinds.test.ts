/**
 * File skills touch regular files and folders only. A FIFO in the tree used to be opened by
 * files.search and wait forever for a writer, holding a thread of libuv's pool of four: a few
 * searches and every bcrypt password check queued behind them.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { at } from "../support/json.ts"
import { Client, nodeWithOwner, run } from "../support/node.ts"

const context = nodeWithOwner()
let uploads: string
let socketServer: Server

beforeAll(async () => {
  uploads = join(context.node.dataDir, "uploads", context.owner.being.id)
  mkdirSync(join(uploads, "notes"), { recursive: true })
  writeFileSync(join(uploads, "notes", "plain.txt"), "a needle in a plain file\n")
  execFileSync("mkfifo", [join(uploads, "notes", "pipe.txt")])
  symlinkSync(join(uploads, "notes", "pipe.txt"), join(uploads, "link-to-pipe.txt"))
  socketServer = createServer()
  await new Promise<void>((resolve) => socketServer.listen(join(uploads, "notes", "unix.sock"), resolve))
})
afterAll(() => new Promise<void>((resolve) => socketServer.close(() => resolve())))

const invoke = (name: string, input: Record<string, unknown>) =>
  run(context.owner.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

describe("pipes, sockets and devices in a file root", () => {
  it("are passed over by files.search, however many searches run, and logins still answer", async () => {
    const searches = await Promise.all(Array.from({ length: 8 }, () => invoke("files.search", { query: "needle" })))
    for (const outcome of searches) {
      expect(outcome.ok).toBe(true)
      expect(at(outcome.output, "matches")).toEqual([
        { path: "notes/plain.txt", line: 1, text: "a needle in a plain file" }
      ])
    }
    const login = await run(
      new Client(context.node.url).api.authPublic.login({
        payload: { email: context.owner.registration.email, password: context.owner.registration.password }
      })
    )
    expect(login.being.id).toBe(context.owner.being.id)
  })

  it("are left out of files.list", async () => {
    const outcome = await invoke("files.list", { recursive: true })
    expect((at(outcome.output, "entries") as ReadonlyArray<{ path: string }>).map((entry) => entry.path)).toEqual([
      "notes",
      "notes/plain.txt"
    ])
  })

  it("are refused by files.read and files.write, directly or through a link", async () => {
    for (const path of ["notes/pipe.txt", "link-to-pipe.txt", "notes/unix.sock"]) {
      const read = await invoke("files.read", { path })
      expect(read, path).toMatchObject({ ok: false, error: expect.stringMatching(/not a regular file/) })
      const written = await invoke("files.write", { path, content: "x" })
      expect(written, path).toMatchObject({ ok: false, error: expect.stringMatching(/not a regular file/) })
    }
  })
})
