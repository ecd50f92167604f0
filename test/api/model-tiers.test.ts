/**
 * The tiers with their own endpoint and price unit, through a real node's Models to the scripted
 * OpenAI-protocol server over HTTP: speech (characters), video (seconds) and transcribe (minutes).
 * Each call lands in the ledger in its unit, as the usage route shows it; a call above the
 * per-call ceiling is refused before anything reaches the provider; a node with no model says
 * what to set.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { SpeechRequest, TranscriptionRequest, VideoRequest } from "../../extensions/models/contract/chat.ts"
import { Models } from "../../extensions/models/contract/models.ts"
import { noModelSettings, remoteDefault, tierSettings } from "../support/models.ts"
import { registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

let remote: OpenAiServer
let node: TestNode
let bare: TestNode
let owner: Awaited<ReturnType<typeof registerOwner>>

beforeAll(async () => {
  remote = await startOpenAiServer()
  node = await startNode({
    ...remoteDefault(remote.baseUrl),
    // A whisper priced at $1 a minute, so a small recording can reach the $0.50 per-call ceiling.
    llmTiers: tierSettings({ transcribe: { model: "my-whisper" } }),
    llmPrices: { "my-whisper": { input: 0, output: 0, perMinute: 1 } },
    spendMaxCallUsd: 0.5
  })
  bare = await startNode(noModelSettings)
  owner = await registerOwner(node)
})
afterAll(async () => {
  await Promise.all([node.close(), bare.close()])
  await remote.close()
})
beforeEach(() => remote.reset())

const on = (target: TestNode) => ({
  speech: (request: Omit<SpeechRequest, "purpose">) =>
    target.runtime.runPromise(
      Effect.either(Effect.flatMap(Models, (models) => models.speech({ purpose: "tiers test", ...request })))
    ),
  video: (request: Omit<VideoRequest, "purpose">) =>
    target.runtime.runPromise(
      Effect.either(Effect.flatMap(Models, (models) => models.video({ purpose: "tiers test", ...request })))
    ),
  transcribe: (request: Omit<TranscriptionRequest, "purpose">) =>
    target.runtime.runPromise(
      Effect.either(Effect.flatMap(Models, (models) => models.transcribe({ purpose: "tiers test", ...request })))
    )
})

const latestCall = async () => (await run(owner.client.api.llm.usage())).recent[0]
const callsMade = async () => (await run(owner.client.api.llm.usage())).calls

const recording = (bytes: number) => ({
  audio: new Uint8Array(bytes),
  filename: "note.webm",
  mimeType: "audio/webm",
  language: null
})

describe("the speech tier", () => {
  it("posts the text to /v1/audio/speech, answers the audio, and records the characters spoken at their price", async () => {
    const text = "The tide is out; the sand is warm."
    const outcome = await on(node).speech({ text, beingId: "b-1" })
    if (outcome._tag === "Left") throw new Error(outcome.left.message)
    const [request] = remote.requestsFor("speech")
    expect(request.body).toMatchObject({
      model: "gpt-4o-mini-tts",
      input: text,
      voice: "alloy",
      response_format: "mp3"
    })
    expect(outcome.right.mimeType).toBe("audio/mpeg")
    // An MPEG audio frame's sync word opens the answer: real audio came back whole.
    expect([...outcome.right.audio.slice(0, 2)]).toEqual([0xff, 0xfb])
    expect(await latestCall()).toMatchObject({
      tier: "speech",
      model: "gpt-4o-mini-tts",
      unit: "speech_characters",
      quantity: text.length,
      beingId: "b-1",
      pricing: "table"
    })
    // gpt-4o-mini-tts: $15 a million characters.
    expect((await latestCall())!.costUsd).toBeCloseTo((text.length * 15) / 1_000_000, 12)
  })

  it("refuses text whose characters cost more than the per-call ceiling, before any request", async () => {
    const before = await callsMade()
    const outcome = await on(node).speech({ text: "a".repeat(40_000) })
    expect(outcome).toMatchObject({
      _tag: "Left",
      left: { _tag: "SpendCeilingReached", ceiling: "call", estimateUsd: 0.6 }
    })
    expect(remote.requestsFor("speech")).toEqual([])
    expect(await callsMade()).toBe(before)
  })
})

describe("the video tier", () => {
  it("starts a render, polls it to completion, downloads the MP4 and records the seconds made", async () => {
    const outcome = await on(node).video({ prompt: "A paper boat on a pond", seconds: 4, size: "1280x720" })
    if (outcome._tag === "Left") throw new Error(outcome.left.message)
    const [created] = remote.requestsFor("videos")
    expect(created.fields).toMatchObject({
      model: "sora-2",
      prompt: "A paper boat on a pond",
      seconds: "4",
      size: "1280x720"
    })
    expect(remote.requestsFor("video").map((request) => request.path)).toEqual(["/v1/videos/video_1"])
    expect(remote.requestsFor("videoContent").map((request) => request.path)).toEqual(["/v1/videos/video_1/content"])
    expect(outcome.right).toMatchObject({ mimeType: "video/mp4", seconds: 4, size: "1280x720" })
    expect(new TextDecoder().decode(outcome.right.video.slice(4, 8))).toBe("ftyp")
    const call = await latestCall()
    expect(call).toMatchObject({ tier: "video", model: "sora-2", unit: "video_seconds", quantity: 4 })
    expect(call!.costUsd).toBeCloseTo(0.4, 12)
  })

  it("says why when the render fails, and records nothing", async () => {
    const before = await callsMade()
    remote.script("video", {
      status: "failed",
      failure: { code: "moderation_blocked", message: "the prompt was refused" }
    })
    const outcome = await on(node).video({ prompt: "Anything" })
    expect(outcome).toMatchObject({
      _tag: "Left",
      left: { _tag: "ModelCallFailed", tier: "video", message: expect.stringContaining("the prompt was refused") }
    })
    expect(remote.requestsFor("videoContent")).toEqual([])
    expect(await callsMade()).toBe(before)
  })

  it("refuses seconds that cost more than the per-call ceiling, before any request", async () => {
    const outcome = await on(node).video({ prompt: "A long take", seconds: 12 })
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "SpendCeilingReached", ceiling: "call" } })
    expect(
      outcome._tag === "Left" && outcome.left._tag === "SpendCeilingReached" ? outcome.left.estimateUsd : 0
    ).toBeCloseTo(1.2, 12)
    expect(remote.requests).toEqual([])
  })
})

describe("the transcribe tier", () => {
  it("records the minutes heard at the price by the minute", async () => {
    remote.script("transcriptions", { text: "Buy bread.", seconds: 12 })
    const outcome = await on(node).transcribe(recording(4000))
    if (outcome._tag === "Left") throw new Error(outcome.left.message)
    const call = await latestCall()
    expect(call).toMatchObject({
      tier: "transcribe",
      model: "my-whisper",
      unit: "audio_minutes",
      quantity: 0.2,
      pricing: "setting"
    })
    expect(call!.costUsd).toBeCloseTo(0.2, 12)
  })

  it("refuses a recording that may last longer than the per-call ceiling pays for, before any request", async () => {
    // 80 KB may last 40 seconds: $0.67 at $1 a minute.
    const outcome = await on(node).transcribe(recording(80_000))
    expect(outcome).toMatchObject({ _tag: "Left", left: { _tag: "SpendCeilingReached", ceiling: "call" } })
    expect(remote.requestsFor("transcriptions")).toEqual([])
  })
})

describe("with no model bound", () => {
  it("each tier says which settings to set, and nothing is sent", async () => {
    const speech = await on(bare).speech({ text: "Hi" })
    const video = await on(bare).video({ prompt: "Hi" })
    const heard = await on(bare).transcribe(recording(100))
    for (const [tier, outcome] of [
      ["speech", speech],
      ["video", video],
      ["transcribe", heard]
    ] as const) {
      expect(outcome).toMatchObject({
        _tag: "Left",
        left: {
          _tag: "ModelsUnavailable",
          tier,
          message: expect.stringContaining("bind the tier in Settings → Models")
        }
      })
    }
    expect(remote.requests).toEqual([])
  })
})
