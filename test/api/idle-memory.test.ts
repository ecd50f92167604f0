/**
 * A node at rest gives back the memory its start grew: a real node in a child process
 * (host/start.ts, as `npm start` runs it after the web app's build check), whose resident size
 * drops under 200 MB once it has started and served the owner's registration. Without the
 * collection after start (host/settle-heap.ts) it stays near 260 MB, most of it the young
 * generation that loading the modules grew.
 */
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, expect, it } from "vitest"
import { Client, person, run } from "../support/node.ts"

const nodeBinary = fileURLToPath(new URL("../../node_modules/.bin/node", import.meta.url))
const startScript = fileURLToPath(new URL("../../host/start.ts", import.meta.url))
const ownerCode = "owner-code-for-the-idle-memory-test"
const dataDir = mkdtempSync(join(tmpdir(), "idle-memory-"))

afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const residentMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024

it("settles under 200 MB resident once started and idle", async () => {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const child = spawn(nodeBinary, [startScript], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", OWNER_ACCESS_CODE: ownerCode, PLUGIN_DIR: join(dataDir, "plugins") },
    stdio: ["ignore", "pipe", "pipe"]
  })
  try {
    let output = ""
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /The node is listening at (\S+)/.exec(output)
        // The owner code line comes once the services are up: from then on the node is at rest.
        if (match !== null && output.includes("Owner access code")) resolve(match[1]!)
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.once("exit", () => reject(new Error(`the node exited during start:\n${output}`)))
    })
    await run(new Client(url).api.authPublic.register({ payload: person(ownerCode) }))

    // Waits on the memory itself, polling /proc, within a deadline (the collection runs 1.5 s after start).
    const deadline = Date.now() + 20_000
    let resident = residentMb(child.pid!)
    while (resident >= 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      resident = residentMb(child.pid!)
    }
    expect(resident).toBeLessThan(200)
  } finally {
    child.kill("SIGKILL")
  }
}, 60_000)
