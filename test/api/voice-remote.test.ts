/**
 * Voice on a real node over real HTTP, with a remote transcribe tier: where a recording would go,
 * consent bound to that destination, and transcriptions sent to a scripted OpenAI-protocol server
 * that hears the audio and answers text. The recording is held in memory: no file appears under
 * the data folder.
 */
import { createHash } from "node:crypto"
import { readdirSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import {
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { audioOf, transcribe, voiceServer } from "./voice-support.ts"

const context = voiceServer()

const MiB = 1024 * 1024
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** Every file under a folder, by its path inside it. */
const filesUnder = (root: string): Array<string> =>
  readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(root.length))
    .sort()

describe("a remote transcribe tier", () => {
  let node: TestNode
  let owner: Registered
  let member: Registered

  beforeAll(async () => {
    node = await startNode({ ...remoteDefault(context.server.baseUrl, "sk-voice-secret-1234") })
    owner = await registerOwner(node)
    member = await registerMember(node, owner.client)
  })
  afterAll(() => node.close())

  it("says where a recording would go, that it leaves the device, and what a minute costs — never the key", async () => {
    const wire = await owner.client.raw("GET", "/api/twin/voice/stt")
    expect(wire.status).toBe(200)
    expect(wire.text).not.toContain("sk-voice-secret")
    const host = new URL(context.server.baseUrl).host
    expect(wire.body).toEqual({
      available: true,
      reason: null,
      provider: "remote",
      requested: "remote",
      model: "gpt-4o-mini-transcribe",
      baseUrl: context.server.baseUrl,
      leavesDevice: true,
      destination: `gpt-4o-mini-transcribe at ${host}`,
      costsMoney: true,
      usdPerMinute: 0.003,
      consentKey: expect.stringMatching(/^stt1\.[0-9a-f]{32}$/),
      consented: false,
      consentedAt: null,
      note: null
    })
  })

  it("refuses a transcription before consent (403) and sends the provider nothing", async () => {
    const answer = await transcribe(owner.client, [{ content: audioOf(1000) }])
    expect(answer.status).toBe(403)
    expect(answer.body.error).toBe("stt_consent_required")
    expect(answer.body.details.destination).toContain("gpt-4o-mini-transcribe")
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
  })

  it("takes consent only to the destination the person saw (409 for another key), per being", async () => {
    const status = await run(owner.client.api.voice.stt())
    const stale = await refused(owner.client.api.voice.consent({ payload: { consentKey: "stt1.0000" } }))
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({ error: "stt_destination_changed", details: { consentKey: status.consentKey } })
    expect((await run(owner.client.api.voice.stt())).consented).toBe(false)
    const empty = await owner.client.raw("POST", "/api/twin/voice/stt/consent", { consentKey: "" })
    expect([empty.status, (empty.body as { error: string }).error]).toEqual([400, "invalid_request"])

    const agreed = await run(owner.client.api.voice.consent({ payload: { consentKey: status.consentKey } }))
    expect(agreed).toMatchObject({ consented: true, consentKey: status.consentKey })
    expect(Date.parse(agreed.consentedAt!)).not.toBeNaN()
    expect((await run(member.client.api.voice.stt())).consented).toBe(false)
  })

  it("transcribes from memory: the provider hears the audio, the answer repeats where it went, spend is per minute", async () => {
    const status = await run(owner.client.api.voice.stt())
    expect(status.consented).toBe(true)
    context.server.script("transcriptions", { text: "Remind me to water the plants.", seconds: 90 })
    const audio = audioOf(120_000)
    const before = filesUnder(node.dataDir)

    const answer = await transcribe(owner.client, [{ content: audio }], { language: "en" })

    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      text: "Remind me to water the plants.",
      language: "en",
      audioSeconds: 90,
      bytes: 120_000,
      format: "webm",
      model: "gpt-4o-mini-transcribe",
      provider: "remote",
      leavesDevice: true,
      destination: status.destination,
      costUsd: expect.closeTo(0.0045, 10),
      durationMs: expect.any(Number)
    })
    const [heard] = context.server.requestsFor("transcriptions")
    expect(heard!.model).toBe("gpt-4o-mini-transcribe")
    expect(heard!.fields.language).toBe("en")
    expect(heard!.files).toEqual([
      { field: "file", filename: "recording.webm", type: "audio/webm", size: 120_000, sha256: sha256(audio) }
    ])
    // Held in memory only: not a file more under the data folder (the database's own files aside, which existed
    // before).
    expect(filesUnder(node.dataDir)).toEqual(before)

    const usage = await run(owner.client.api.llm.usage())
    expect(usage.recent[0]).toMatchObject({
      tier: "transcribe",
      model: "gpt-4o-mini-transcribe",
      purpose: "voice transcription",
      usageReported: true
    })
    expect(usage.recent[0]!.costUsd).toBeCloseTo(0.0045, 10)
  })

  it("refuses what is not one audio part with a language code, and asks the provider nothing", async () => {
    const cases: Array<[Awaited<ReturnType<typeof transcribe>>, number, string]> = [
      [await transcribe(owner.client, [], { language: "en" }), 400, "no_audio"],
      [await transcribe(owner.client, [{ content: audioOf(10) }, { content: audioOf(10) }]), 400, "one_audio_part"],
      [
        await transcribe(owner.client, [
          { content: new TextEncoder().encode("notes"), type: "text/plain", name: "notes.txt" }
        ]),
        415,
        "unsupported_audio_format"
      ],
      [
        await transcribe(owner.client, [{ content: audioOf(10) }], { language: "english, please; and more" }),
        400,
        "invalid_language"
      ],
      [await transcribe(owner.client, [{ content: new Uint8Array(0) }]), 400, "no_audio"]
    ]
    for (const [answer, status, error] of cases) expect([answer.status, answer.body.error]).toEqual([status, error])
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
  })

  it("takes 8 MiB of audio, and refuses more with 413 (on its length, and while a chunked body streams)", async () => {
    context.server.script("transcriptions", { text: "a long one" })
    const whole = await transcribe(owner.client, [{ content: audioOf(8 * MiB), type: "audio/wav", name: "long.wav" }])
    expect([whole.status, whole.body.format, whole.body.bytes]).toEqual([200, "wav", 8 * MiB])
    expect(context.server.requestsFor("transcriptions")[0]!.files[0]!.size).toBe(8 * MiB)
    context.server.reset()

    const over = await transcribe(owner.client, [{ content: audioOf(8 * MiB + 1) }])
    expect([over.status, over.body.error]).toEqual([413, "payload_too_large"])

    // The node stops reading at the limit and answers 413; a client still writing may meet its connection's reset
    // before it reads that answer (EPIPE), as with any server that refuses a body it will not read.
    const streamed = await new Promise<{ status: number; body: string; sent: number } | null>((resolve, reject) => {
      const boundary = "voice-boundary"
      const outgoing = httpRequest(`${owner.client.base}/api/twin/voice/transcribe`, {
        method: "POST",
        headers: {
          ...owner.client.headers,
          cookie: owner.client.cookieHeader(),
          "content-type": `multipart/form-data; boundary=${boundary}`
        }
      })
      let sent = 0
      let answered = false
      outgoing.on("response", (response) => {
        answered = true
        let body = ""
        response.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body, sent }))
      })
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        if (answered) return
        if (error.code === "EPIPE" || error.code === "ECONNRESET") resolve(null)
        else reject(error)
      })
      outgoing.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="r.webm"\r\nContent-Type: audio/webm\r\n\r\n`
      )
      const chunk = Buffer.from(audioOf(64 * 1024))
      const pump = () => {
        // No Content-Length: the node counts the body as it arrives and answers before it ends.
        while (!answered && sent < 16 * MiB) {
          sent += chunk.length
          if (!outgoing.write(chunk)) return outgoing.once("drain", pump)
        }
      }
      pump()
    })
    if (streamed !== null) {
      expect(streamed.status).toBe(413)
      expect(JSON.parse(streamed.body).error).toBe("payload_too_large")
      expect(streamed.sent).toBeLessThan(16 * MiB)
    }
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
    expect((await fetch(`${owner.client.base}/api/health`)).status).toBe(200)
  }, 60_000)

  it("counts a transcription in the upload and the llm budgets", async () => {
    const client = new Client(node.url)
    client.copyCookiesFrom(owner.client)
    // 30 calls of the llm class from one address spend that budget; the next transcription is refused by it.
    for (let i = 0; i < 30; i++) await client.raw("POST", "/api/twin/learn", { text: "", source: "manual" })
    const answer = await transcribe(client, [{ content: audioOf(10) }])
    expect(answer.status).toBe(429)
    expect(answer.body.details.class).toBe("llm")
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
  })

  it("withdraws consent, after which a transcription is refused again", async () => {
    const withdrawn = await run(owner.client.api.voice.withdrawConsent())
    expect([withdrawn.consented, withdrawn.consentedAt]).toEqual([false, null])
    const answer = await transcribe(owner.client, [{ content: audioOf(100) }])
    expect([answer.status, answer.body.error]).toEqual([403, "stt_consent_required"])
  })
})
