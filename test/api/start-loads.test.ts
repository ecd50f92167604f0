/**
 * What an idle node holds (issue 27, idle RSS): a real node as `npm start` starts it, registered and at rest, runs its
 * bundle as plain JavaScript (host/bundled-start.ts replaced its process with `node <bundle>/serve.mjs`, so no
 * TypeScript compiler stays resident) and has loaded none of the libraries only a feature's use needs: the MCP SDK and
 * zod, a backup's age, tar and fflate, an import's ical.js, a CSV's writer, the isolate's addon, esbuild, undici, the
 * model client, web-push, and Node's own HTTP client. Each of them loaded at start cost an idle node megabytes (docs/benchmarks.md, "Idle RSS").
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type ChildNode, startChildNode } from "../support/child-node.ts"
import { Client, person, run } from "../support/node.ts"
import { until } from "../support/until.ts"

let node: ChildNode

beforeAll(async () => {
  node = await startChildNode({ nodeFlags: ["--import", "./test/support/loaded-packages.ts"] })
  await until("the owner code", () => node.output().includes("Owner access code"), 60_000)
  await run(new Client(node.url).api.authPublic.register({ payload: person(node.ownerCode) }))
}, 90_000)

afterAll(() => node?.close())

it("runs the bundle as plain JavaScript, in the process it was started as", () => {
  const command = readFileSync(`/proc/${node.pid}/cmdline`, "utf8")
    .split("\0")
    .filter((arg) => arg !== "")
  expect(command.at(-1)).toMatch(/node_modules\/\.cache\/node-server\/[0-9a-f]+\/serve\.mjs$/)
  expect(command).toContain("--import")
})

it("has loaded none of the libraries only a feature's use needs", async () => {
  const before = node.output().length
  process.kill(node.pid, "SIGUSR2")
  const line = await until("the loaded packages", () => /loaded-packages (.*)\n/.exec(node.output().slice(before))?.[1])
  const loaded = JSON.parse(line) as { packages: ReadonlyArray<string>; nodeHttpClient: boolean }
  // What a start needs: the database, passwords, uploads and files served.
  expect(loaded.packages).toContain("better-sqlite3")
  for (const onUse of [
    "@modelcontextprotocol/sdk",
    "zod",
    "age-encryption",
    "tar",
    "fflate",
    "ical.js",
    "csv-stringify",
    "isolated-vm",
    "esbuild",
    "undici",
    "openai",
    "web-push"
  ]) {
    expect(loaded.packages, JSON.stringify(loaded.packages)).not.toContain(onUse)
  }
  expect(loaded.nodeHttpClient).toBe(false)
})
