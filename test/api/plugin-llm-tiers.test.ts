/**
 * A third-party plugin's `llm` capability reaching the speech, transcribe and video tiers from
 * inside its isolate: bytes cross the boundary both ways, every call is charged to the caller
 * in its tier's unit, and the same spend ceilings refuse before the provider is asked.
 */
import { join } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { skillMain, writePluginFolder } from "../support/plugin-folder.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode((dataDir) => ({
    ...remoteDefault(models.baseUrl),
    spendMaxCallUsd: 0.5,
    pluginDir: join(dataDir, "plugins")
  }))
  owner = await registerOwner(node)
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "speaker",
    {
      capabilities: [{ kind: "llm" }],
      extensions: [{ kind: "skill", id: "say", uses: ["llm"] }]
    },
    skillMain(
      "say",
      `
    const llm = context.adapters.llm
    const spoken = await llm.speech({ text: "Good morning, sea." })
    const heard = await llm.transcribe({ audio: spoken.audio, filename: "morning.mp3", language: "en" })
    const film = await llm.video({ prompt: "Waves", seconds: 4 })
    const long = await llm.video({ prompt: "Waves all day", seconds: 12 }).then(() => "made", (error) => error.message)
    const bad = await llm.speech({ text: "" }).then(() => "spoken", (error) => error.message)
    return {
      operations: Object.keys(llm).sort(),
      audio: { bytes: spoken.audio instanceof Uint8Array ? spoken.audio.length : -1, sync: [spoken.audio[0], spoken.audio[1]], mimeType: spoken.mimeType, model: spoken.model },
      heard: heard.text,
      film: { bytes: film.data.length, mimeType: film.mimeType, seconds: film.seconds, costUsd: film.costUsd },
      long,
      bad
    }`
    )
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "speaker", granted: ["llm"] } }))
})
afterAll(async () => {
  await node.close()
  await models.close()
})
beforeEach(() => models.reset())

const calls = () =>
  node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql<{
          tier: string
          unit: string
          quantity: number
          purpose: string
        }>`SELECT tier, unit, quantity, purpose FROM llm_calls ORDER BY created_at, seq`
    )
  )

describe("a plugin's llm capability", () => {
  it("speaks, hears and films through the node's tiers, charged in each tier's unit, under the same ceilings", async () => {
    models.script("transcriptions", { text: "Good morning, sea.", seconds: 2 })
    const answer = await run(owner.client.api.studioSkills.invokeSkill({ payload: { name: "speaker.say", input: {} } }))
    expect(answer).toMatchObject({
      ok: true,
      output: {
        operations: ["generate", "image", "ocr", "speech", "structured", "transcribe", "video"],
        audio: { bytes: 20 * 417, sync: [0xff, 0xfb], mimeType: "audio/mpeg", model: "gpt-4o-mini-tts" },
        heard: "Good morning, sea.",
        film: { bytes: 24, mimeType: "video/mp4", seconds: 4 },
        long: expect.stringContaining("SPEND_MAX_CALL_USD"),
        bad: "Say what to speak: text must be 1 to 4096 characters."
      }
    })
    // The audio the plugin got back is what it sent to be heard, whole.
    const [heard] = models.requestsFor("transcriptions")
    expect(heard!.files).toMatchObject([{ filename: "morning.mp3", type: "audio/mpeg", size: 20 * 417 }])
    // The 12-second film was refused before the provider was asked: one render only.
    expect(models.requestsFor("videos")).toHaveLength(1)
    expect(await calls()).toEqual([
      { tier: "speech", unit: "speech_characters", quantity: 18, purpose: "skill speaker.say" },
      { tier: "transcribe", unit: "audio_minutes", quantity: 2 / 60, purpose: "skill speaker.say" },
      { tier: "video", unit: "video_seconds", quantity: 4, purpose: "skill speaker.say" }
    ])
  })
})
