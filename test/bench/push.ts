/**
 * Web Push (issue 30): a signal raised on a person with 1,000 subscribed devices, to each encrypted message delivered
 * to a local push service (test/support/push-service.ts, taking messages unread as a vendor's would). One real node in
 * this process, its owner raising through `POST /api/desktop/signals`; the figure is the time from the raise to each
 * message's arrival, p50 and p99 over every message of five raises one after another (each raise's last message in
 * before the next). Per message the node encrypts (ECDH P-256, HKDF, AES-128-GCM), signs a VAPID JWT (ES256) and
 * posts it, sixteen at a time. Anchor in the same run: the same number of POSTs of the same size, sixteen at a time,
 * from node:http to a bare node:http server, timed from the first: the transport's floor.
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { Client, run } from "../support/client.ts"
import { person } from "../support/person.ts"
import { startPushService } from "../support/push-service.ts"
import { until } from "../support/until.ts"
import { recordVerdict } from "./verdicts.ts"

const devices = 1000
const raises = 5
/** What the node's messages weigh on the wire (a payload of about 150 bytes, encrypted, with its header). */
const messageBytes = 250
const atOnce = 16

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const nodePushes = async () => {
  const push = await startPushService({ check: false })
  const dataDir = mkdtempSync(join(tmpdir(), "bench-push-"))
  const runtime = ManagedRuntime.make(
    bootInfoLayer.pipe(
      Layer.provideMerge(
        nodeLayer({
          settings: {
            dataDir,
            port: 0,
            host: "127.0.0.1",
            trustProxy: 1,
            rateLimitPerMinute: 1_000_000,
            encryptionKey: Option.some(Redacted.make("a passphrase for the push bench")),
            pushAllowLoopback: true,
            pushContact: Option.some("mailto:bench@example.org"),
            pushMaxSubscriptions: devices
          }
        })
      )
    )
  )
  try {
    const info = await runtime.runPromise(BootInfo)
    const owner = new Client(info.url)
    await run(owner.api.authPublic.register({ payload: person(Option.getOrThrow(info.ownerCode)) }))
    for (let n = 0; n < devices; n++) {
      const device = push.subscribe(`bench-${n}`)
      await run(owner.api.push.subscribe({ payload: { endpoint: device.endpoint, keys: device.keys } }))
    }
    const raise = async (title: string) => {
      const started = Date.now()
      const { signal } = await run(
        owner.api.desktop.raiseSignal({
          payload: { title, kind: "alert", body: "", options: [], priority: "normal", dueAt: null, action: null }
        })
      )
      const arrived = await until(
        `${devices} pushes of "${title}"`,
        () => {
          const mine = push.messages.filter((message) => message.payload.id === signal.id)
          return mine.length >= devices && mine
        },
        120_000,
        5
      )
      return arrived.map((message) => message.at - started)
    }
    await raise("warm-up")
    const latencies: Array<number> = []
    for (let n = 0; n < raises; n++) latencies.push(...(await raise(`raise ${n}`)))
    return latencies.sort((a, b) => a - b)
  } finally {
    await runtime.dispose()
    await push.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** The same number of POSTs of the same size, sixteen at a time, to a bare server: each one's time from the first. */
const barePosts = async () => {
  const server = createServer((incoming, outgoing) => {
    incoming.resume()
    incoming.on("end", () => outgoing.writeHead(201).end())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const body = Buffer.alloc(messageBytes, 1)
  const post = () =>
    new Promise<void>((resolve, reject) => {
      const outgoing = request(
        { host: "127.0.0.1", port, method: "POST", path: "/push", headers: { "content-length": body.length } },
        (answer) => answer.resume().on("end", resolve)
      )
      outgoing.on("error", reject)
      outgoing.end(body)
    })
  try {
    const round = async () => {
      const started = Date.now()
      const times: Array<number> = []
      let next = 0
      await Promise.all(
        Array.from({ length: atOnce }, async () => {
          while (next < devices) {
            next += 1
            await post()
            times.push(Date.now() - started)
          }
        })
      )
      return times
    }
    await round()
    const latencies: Array<number> = []
    for (let n = 0; n < raises; n++) latencies.push(...(await round()))
    return latencies.sort((a, b) => a - b)
  } finally {
    server.close()
  }
}

export const benchPush = async () => {
  const bare = await barePosts()
  const node = await nodePushes()
  const [p50, p99, bareP50, bareP99] = [
    percentile(node, 50),
    percentile(node, 99),
    percentile(bare, 50),
    percentile(bare, 99)
  ]
  const rows = [
    ["figure", "p50 ms", "p99 ms", "against"],
    [
      `node: raise → ${devices} pushes delivered`,
      String(p50),
      String(p99),
      `p99 node/bare ${(p99 / bareP99).toFixed(1)}`
    ],
    [`bare: ${devices} POSTs, ${atOnce} at once`, String(bareP50), String(bareP99), ""]
  ]
  for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 44 : 12)).join(""))
  recordVerdict({
    figure: `raise → Web Push delivered, ${devices} subscriptions`,
    measured: `p50 ${p50} ms, p99 ${p99} ms (${(p99 / bareP99).toFixed(1)}× bare at p99)`,
    anchor: `bare ${devices} POSTs ${atOnce} at once: p50 ${bareP50} ms, p99 ${bareP99} ms`,
    aim: "—",
    met: null
  })
}

if (import.meta.main) await benchPush()
