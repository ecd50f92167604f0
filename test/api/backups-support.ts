/**
 * Helpers of the backups tests: a node with an owner, a member and a plugin folder inside its data folder; the
 * reference `age` command decrypting a backup (it reads a passphrase only from a terminal, so through `script`'s
 * pseudo-terminal, typed when it asks); `npm run restore` as a child process.
 */
import { spawn } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll } from "vitest"
import { type Registered, registerMember, registerOwner, startNode, type TestNode } from "../support/node.ts"

export const PASSPHRASE = "correct horse battery staple"
export const PLUGIN_NOTE = "a plugin's own file"
export const ENCRYPTION_KEY = "the node's own long encryption key"

/** The settings a backed-up node and its restore share: files and plugins inside the data folder. */
export const backupNodeSettings = (dataDir: string) => ({
  pluginDir: join(dataDir, "plugins"),
  encryptionKey: Option.some(Redacted.make(ENCRYPTION_KEY))
})

export const backupsNode = () => {
  const context = {} as { node: TestNode; owner: Registered; member: Registered }
  beforeAll(async () => {
    context.node = await startNode((dataDir) => {
      mkdirSync(join(dataDir, "plugins", "hello-plugin"), { recursive: true })
      writeFileSync(join(dataDir, "plugins", "hello-plugin", "note.txt"), PLUGIN_NOTE)
      return backupNodeSettings(dataDir)
    })
    context.owner = await registerOwner(context.node)
    context.member = await registerMember(context.node, context.owner.client)
  })
  afterAll(() => context.node.close())
  return context
}

/** Decrypts `file` into `out` with Debian's `age`, typing the passphrase when it asks for it. */
export const ageDecrypt = (file: string, out: string, passphrase: string) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("script", ["-q", "-c", `age -d -o '${out}' '${file}'`, "/dev/null"], {
      stdio: ["pipe", "pipe", "pipe"]
    })
    let output = ""
    let typed = false
    const hear = (chunk: Buffer) => {
      output += chunk.toString()
      if (!typed && output.includes("passphrase")) {
        typed = true
        child.stdin.write(`${passphrase}\n`)
      }
    }
    child.stdout.on("data", hear)
    child.stderr.on("data", hear)
    child.on("close", (code) => resolve({ code, output }))
  })

/** Runs `npm run restore`'s script with the given environment; answers its exit code and what it printed. */
export const runRestore = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ["host/restore.ts", ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("close", (code) => resolve({ code, output }))
  })
