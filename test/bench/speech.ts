/**
 * Speech synthesis overhead (issue 17): a Muse reply read aloud through the node
 * (`POST /api/threads/:id/messages/:messageId/speech`: session, ownership, ceilings, the speech
 * tier's call, the ledger row, the audio answered) beside the bare endpoint it calls (`POST
 * /v1/audio/speech` on the scripted OpenAI server, no delays, half a second of MP3), each to the
 * last byte of audio. They take turns, reading by reading, so a busy machine weighs on both
 * alike; the figure is the difference of the p50s and their ratio. Prints figures; never fails.
 *
 * Knob (environment): BENCH_SPEECH_READINGS (100).
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { boundTo, unboundModelSettings } from "../../extensions/models/test-layer.ts"
import { Client, run } from "../support/client.ts"
import { startOpenAiServer } from "../support/openai-server.ts"
import { person } from "../support/person.ts"
import { firstPage } from "../support/client.ts"

const readings = Number(process.env.BENCH_SPEECH_READINGS) > 0 ? Number(process.env.BENCH_SPEECH_READINGS) : 100
const warmup = 10
const reply = "The lighthouse keeps its watch through the night, and the boats come home by its light."

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

/** Milliseconds to the last byte of an answer. */
const timed = async (ask: () => Promise<Response>) => {
  const started = performance.now()
  const response = await ask()
  const bytes = (await response.arrayBuffer()).byteLength
  if (!response.ok || bytes === 0) throw new Error(`a reading failed: ${response.status}`)
  return performance.now() - started
}

export const benchSpeech = async () => {
  const models = await startOpenAiServer()
  models.handle("chat", () => ({ content: reply }))
  const dataDir = mkdtempSync(join(tmpdir(), "bench-speech-"))
  const runtime = ManagedRuntime.make(
    bootInfoLayer.pipe(
      Layer.provideMerge(
        nodeLayer({
          // No ceiling stops a hundred readings: the day's is raised with the rest.
          settings: {
            ...unboundModelSettings,
            ...boundTo(models.baseUrl),
            dataDir,
            port: 0,
            host: "127.0.0.1",
            trustProxy: 1,
            rateLimitPerMinute: 100_000_000,
            spendMaxDayUsd: 1000
          }
        })
      )
    )
  )
  try {
    const info = await runtime.runPromise(BootInfo)
    const owner = new Client(info.url)
    await run(owner.api.authPublic.register({ payload: person(Option.getOrThrow(info.ownerCode)) }))
    const [thread] = await run(owner.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    await run(
      owner.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Tell me about the lighthouse" } })
    )
    // The Muse replies in the background; a bench may poll for it.
    let replyId: string | undefined
    while (replyId === undefined) {
      const messages = await run(owner.api.threads.listMessages({ path: { id: thread!.id } }))
      replyId = messages.find((message) => message.role === "assistant")?.id
      if (replyId === undefined) await new Promise((resolve) => setTimeout(resolve, 20))
    }

    // The `llm` rate class allows 30 readings a minute from one address (trustProxy 1 reads it from
    // X-Forwarded-For): the same session comes from a fresh address every 25.
    let read = 0
    const path = `${info.url}/api/threads/${thread!.id}/messages/${replyId}/speech`
    const throughNode = () =>
      fetch(path, {
        method: "POST",
        headers: { cookie: owner.cookieHeader(), "x-forwarded-for": `10.17.${Math.floor(read++ / 25) % 250}.1` }
      })
    const bare = () =>
      fetch(`${models.baseUrl}/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-test-default" },
        body: JSON.stringify({ model: "gpt-4o-mini-tts", input: reply, voice: "alloy", response_format: "mp3" })
      })

    const direct: Array<number> = []
    const node: Array<number> = []
    for (let round = 0; round < warmup + readings; round++) {
      const anchor = await timed(bare)
      const measured = await timed(throughNode)
      if (round < warmup) continue
      direct.push(anchor)
      node.push(measured)
    }
    const p50 = { direct: percentile(direct, 50), node: percentile(node, 50) }
    console.log(`${readings} readings of a ${reply.length}-character reply, one at a time, after ${warmup} to warm up`)
    console.log(
      `bare POST /v1/audio/speech → last byte               p50 ${p50.direct.toFixed(2)} ms   p99 ${percentile(direct, 99).toFixed(2)} ms`
    )
    console.log(
      `POST /api/threads/…/speech through the node → last byte p50 ${p50.node.toFixed(2)} ms   p99 ${percentile(node, 99).toFixed(2)} ms`
    )
    console.log(
      `reading aloud through the node adds ${(p50.node - p50.direct).toFixed(2)} ms at p50 (${(p50.node / p50.direct).toFixed(2)}×)`
    )
  } finally {
    await runtime.dispose()
    await models.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
