/**
 * code.execute's round trip per tier (issue 11), through the invoke route of a real node: the
 * isolate warm (javascript, after warm-up runs) and nova (sh `true`, python `pass`), each beside
 * its bare floor measured in the same run: a fresh `node -e ''` process, and bubblewrap running
 * `true` with every namespace unshared. Aims: isolate < 20 ms warm, nova < 150 ms.
 */
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { spawnSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { person } from "../support/person.ts"

const rounds = 30
const warmUp = 5

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const timed = async (times: number, once: () => unknown) => {
  const samples: Array<number> = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    await once()
    samples.push(performance.now() - started)
  }
  return samples.sort((a, b) => a - b)
}

const ms = (value: number) => `${value.toFixed(1)} ms`

export const benchSandbox = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-sandbox-"))
  const runtime = ManagedRuntime.make(
    bootInfoLayer.pipe(
      Layer.provideMerge(
        nodeLayer({
          settings: { dataDir, port: 0, host: "127.0.0.1", rateLimitPerMinute: 100_000_000 }
        })
      )
    )
  )
  try {
    const info = await runtime.runPromise(BootInfo)
    const registered = await fetch(`${info.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(person(Option.getOrThrow(info.ownerCode)))
    })
    const cookie = registered.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ")
    const execute = (language: string, code: string) => async () => {
      const response = await fetch(`${info.url}/api/studio/skills/invoke`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ name: "code.execute", input: { language, code } })
      })
      const answer = (await response.json()) as { ok?: boolean; error?: string }
      if (answer.ok !== true) throw new Error(`code.execute failed: ${response.status} ${JSON.stringify(answer)}`)
    }
    const bare = (argv: ReadonlyArray<string>) => () => {
      const [command, ...args] = argv
      const result = spawnSync(command!, args, { stdio: "ignore" })
      if (result.status !== 0) throw new Error(`${argv.join(" ")} failed`)
    }
    await timed(warmUp, execute("javascript", "1"))
    const isolate = await timed(rounds, execute("javascript", "console.log(1)"))
    const nodeFloor = await timed(10, bare([process.execPath, "-e", ""]))
    await timed(2, execute("sh", "true"))
    const novaSh = await timed(rounds, execute("sh", "true"))
    const novaPython = await timed(rounds, execute("python", "pass"))
    const bwrapFloor = await timed(
      rounds,
      bare([
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/bin",
        "/bin",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--",
        "/usr/bin/true"
      ])
    )
    const rows = [
      ["figure", "p50", "p90", "against"],
      [
        "code.execute javascript, isolate warm",
        ms(percentile(isolate, 50)),
        ms(percentile(isolate, 90)),
        percentile(isolate, 50) < 20 ? "< 20 ms: met" : "< 20 ms: missed"
      ],
      [
        "floor: node -e '' in a fresh process",
        ms(percentile(nodeFloor, 50)),
        ms(percentile(nodeFloor, 90)),
        `isolate/floor ${(percentile(isolate, 50) / percentile(nodeFloor, 50)).toFixed(2)}×`
      ],
      [
        "code.execute sh `true`, nova",
        ms(percentile(novaSh, 50)),
        ms(percentile(novaSh, 90)),
        percentile(novaSh, 50) < 150 ? "< 150 ms: met" : "< 150 ms: missed"
      ],
      [
        "code.execute python `pass`, nova",
        ms(percentile(novaPython, 50)),
        ms(percentile(novaPython, 90)),
        percentile(novaPython, 50) < 150 ? "< 150 ms: met" : "< 150 ms: missed"
      ],
      [
        "floor: bwrap --unshare-all … true",
        ms(percentile(bwrapFloor, 50)),
        ms(percentile(bwrapFloor, 90)),
        `nova sh/floor ${(percentile(novaSh, 50) / percentile(bwrapFloor, 50)).toFixed(1)}×`
      ]
    ]
    for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 44 : 14)).join(""))
  } finally {
    await runtime.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
