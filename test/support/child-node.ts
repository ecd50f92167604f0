/**
 * A node as its own process (`node host/start.ts`), for tests that need what only a process
 * gives: extra Node flags (a preload such as ./egress-hook.ts) or settings read from the
 * environment exactly as `npm start` reads them. Resolves once the node listens.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./free-port.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const startScript = fileURLToPath(new URL("../../host/start.ts", import.meta.url))

export interface ChildNodeOptions {
  /** Settings as environment variables (docs/operations.md), beside the data folder, port and owner code. */
  readonly env?: Record<string, string>
  /** Node flags before the start script, e.g. ["--import", "./test/support/egress-hook.ts"]. */
  readonly nodeFlags?: ReadonlyArray<string>
}

export interface ChildNode {
  readonly url: string
  readonly ownerCode: string
  readonly dataDir: string
  readonly output: () => string
  readonly close: () => Promise<void>
}

export const startChildNode = async ({ env = {}, nodeFlags = [] }: ChildNodeOptions = {}): Promise<ChildNode> => {
  const dataDir = mkdtempSync(join(tmpdir(), "child-node-"))
  const ownerCode = `owner-code-${process.pid}-${Date.now()}`
  const child = spawn(nodeBinary, [...nodeFlags, startScript], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: "127.0.0.1", TRUST_PROXY: "1", OWNER_ACCESS_CODE: ownerCode, ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /The node is listening at (\S+)/.exec(output)
      if (match) resolve(match[1]!)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", () => reject(new Error(`the node exited before listening:\n${output}`)))
  })
  return {
    url,
    ownerCode,
    dataDir,
    output: () => output,
    close: async () => {
      if (child.exitCode === null) child.kill("SIGTERM")
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
