/**
 * Voice on a real node over real HTTP: where a recording would go, consent bound to that
 * destination, and transcriptions sent to a scripted OpenAI-protocol server that hears the audio
 * and answers text. The recording is held in memory: no file appears under the data folder.
 */
import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { freePort } from "../support/free-port.ts"
import { noModelSettings, remoteDefault, tierSettings } from "../support/models.ts"
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
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

const MiB = 1024 * 1024
let server: OpenAiServer

beforeAll(async () => {
  server = await startOpenAiServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

/** Bytes that look like nothing but themselves, so the server's hash proves they arrived whole. */
const audioOf = (size: number, seed = 7) => {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) % 251
  return bytes
}
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

interface Part {
  readonly content: Uint8Array
  readonly type?: string
  readonly name?: string
}

/** A transcription as the recorder in the browser sends it: a multipart form with the audio and a language. */
const transcribe = async (client: Client, parts: ReadonlyArray<Part>, fields: Record<string, string> = {}) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const part of parts)
    form.append(
      "audio",
      new Blob([part.content as Uint8Array<ArrayBuffer>], { type: part.type ?? "audio/webm;codecs=opus" }),
      part.name ?? "recording.webm"
    )
  const response = await fetch(`${client.base}/api/twin/voice/transcribe`, {
    method: "POST",
    body: form,
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> }
}

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
    node = await startNode({ ...remoteDefault(server.baseUrl, "sk-voice-secret-1234") })
    owner = await registerOwner(node)
    member = await registerMember(node, owner.client)
  })
  afterAll(() => node.close())

  it("says where a recording would go, that it leaves the device, and what a minute costs — never the key", async () => {
    const wire = await owner.client.raw("GET", "/api/twin/voice/stt")
    expect(wire.status).toBe(200)
    expect(wire.text).not.toContain("sk-voice-secret")
    const host = new URL(server.baseUrl).host
    expect(wire.body).toEqual({
      available: true,
      reason: null,
      provider: "remote",
      requested: "remote",
      model: "gpt-4o-mini-transcribe",
      baseUrl: server.baseUrl,
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
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
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
    server.script("transcriptions", { text: "Remind me to water the plants.", seconds: 90 })
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
    const [heard] = server.requestsFor("transcriptions")
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
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
  })

  it("takes 8 MiB of audio, and refuses more with 413 (on its length, and while a chunked body streams)", async () => {
    server.script("transcriptions", { text: "a long one" })
    const whole = await transcribe(owner.client, [{ content: audioOf(8 * MiB), type: "audio/wav", name: "long.wav" }])
    expect([whole.status, whole.body.format, whole.body.bytes]).toEqual([200, "wav", 8 * MiB])
    expect(server.requestsFor("transcriptions")[0]!.files[0]!.size).toBe(8 * MiB)
    server.reset()

    const over = await transcribe(owner.client, [{ content: audioOf(8 * MiB + 1) }])
    expect([over.status, over.body.error]).toEqual([413, "payload_too_large"])

    const streamed = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
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
      outgoing.on("error", (error) => (answered ? undefined : reject(error)))
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
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body).error).toBe("payload_too_large")
    expect(streamed.sent).toBeLessThan(16 * MiB)
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
  }, 60_000)

  it("counts a transcription in the upload and the llm budgets", async () => {
    const client = new Client(node.url)
    client.copyCookiesFrom(owner.client)
    // 30 calls of the llm class from one address spend that budget; the next transcription is refused by it.
    for (let i = 0; i < 30; i++) await client.raw("POST", "/api/twin/learn", { text: "", source: "manual" })
    const answer = await transcribe(client, [{ content: audioOf(10) }])
    expect(answer.status).toBe(429)
    expect(answer.body.details.class).toBe("llm")
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
  })

  it("withdraws consent, after which a transcription is refused again", async () => {
    const withdrawn = await run(owner.client.api.voice.withdrawConsent())
    expect([withdrawn.consented, withdrawn.consentedAt]).toEqual([false, null])
    const answer = await transcribe(owner.client, [{ content: audioOf(100) }])
    expect([answer.status, answer.body.error]).toEqual([403, "stt_consent_required"])
  })
})

describe("a local transcribe tier without fallback", () => {
  let node: TestNode
  let owner: Registered

  beforeAll(async () => {
    // The scripted server on loopback reads as a local server: nothing leaves the host.
    node = await startNode({
      llmTiers: tierSettings({ transcribe: { baseUrl: server.baseUrl, model: "whisper-large-v3" } }),
      localLlmFallback: false
    })
    owner = await registerOwner(node)
  })
  afterAll(() => node.close())

  it("says nothing leaves the device, refuses consent (400) and transcribes without it, at no cost", async () => {
    const status = await run(owner.client.api.voice.stt())
    expect(status).toMatchObject({
      available: true,
      provider: "local",
      requested: "local",
      leavesDevice: false,
      costsMoney: false,
      usdPerMinute: 0,
      consented: false
    })
    expect(status.note).toContain("stay on this host")
    const consent = await refused(owner.client.api.voice.consent({ payload: { consentKey: status.consentKey } }))
    expect([consent.status, consent.body.error]).toEqual([400, "stt_stays_on_device"])

    server.script("transcriptions", { text: "kept at home" })
    const answer = await transcribe(owner.client, [{ content: audioOf(500), type: "audio/ogg", name: "r.ogg" }])
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({
      text: "kept at home",
      provider: "local",
      leavesDevice: false,
      format: "ogg",
      costUsd: 0,
      audioSeconds: null,
      language: null
    })
    expect(server.requestsFor("transcriptions")[0]!.model).toBe("whisper-large-v3")
  })
})

describe("no transcription model", () => {
  let node: TestNode
  let owner: Registered

  beforeAll(async () => {
    node = await startNode({ ...noModelSettings })
    owner = await registerOwner(node)
  })
  afterAll(() => node.close())

  it("says so and what to set, and refuses a transcription with 503 before reading it", async () => {
    const status = await run(owner.client.api.voice.stt())
    expect(status).toMatchObject({ available: false, provider: "remote", leavesDevice: true })
    expect(status.reason).toContain("LLM_API_KEY")
    const answer = await transcribe(owner.client, [{ content: audioOf(100) }])
    expect([answer.status, answer.body.error]).toEqual([503, "models_unavailable"])
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
  })
})

describe("a local transcribe tier allowed to fall back", () => {
  let node: TestNode
  let owner: Registered
  let deadLocal: string

  beforeAll(async () => {
    // A local server that is down: each call falls back to the remote default, as LOCAL_LLM_FALLBACK allows.
    deadLocal = `http://127.0.0.1:${await freePort()}/v1`
    node = await startNode({
      ...remoteDefault(server.baseUrl),
      llmTiers: tierSettings({ transcribe: { baseUrl: deadLocal, model: "whisper-local" } }),
      localLlmFallback: true,
      spendMaxCallUsd: 0.001
    })
    owner = await registerOwner(node)
  })
  afterAll(() => node.close())

  it("counts as leaving the device, priced at the fallback, and the transcript says the remote one heard it", async () => {
    const status = await run(owner.client.api.voice.stt())
    expect(status).toMatchObject({
      provider: "local+remote",
      requested: "local",
      leavesDevice: true,
      usdPerMinute: 0.003,
      destination: `whisper-local at ${new URL(deadLocal).host}, then gpt-4o-mini-transcribe at ${new URL(server.baseUrl).host} if it fails`
    })
    expect(status.note).toContain("LOCAL_LLM_FALLBACK")
    expect((await transcribe(owner.client, [{ content: audioOf(100) }])).status).toBe(403)
    await run(owner.client.api.voice.consent({ payload: { consentKey: status.consentKey } }))

    server.script("transcriptions", { text: "heard far away", seconds: 2 })
    const answer = await transcribe(owner.client, [{ content: audioOf(1000) }])
    expect(answer.body).toMatchObject({
      text: "heard far away",
      provider: "remote",
      leavesDevice: true,
      model: "gpt-4o-mini-transcribe"
    })
    expect(answer.body.destination).toBe(`gpt-4o-mini-transcribe at ${new URL(server.baseUrl).host}`)
  })

  it("refuses a recording whose minutes would pass a spend ceiling, before any audio is sent", async () => {
    // 100 kB is taken for 50 s of speech: $0.0025 at $0.003 a minute, over the $0.001 ceiling of one call.
    const answer = await transcribe(owner.client, [{ content: audioOf(100_000) }])
    expect([answer.status, answer.body.error, answer.body.details.ceiling]).toEqual([
      409,
      "spend_ceiling_reached",
      "call"
    ])
    expect(server.requestsFor("transcriptions")).toHaveLength(0)
  })
})

describe("a destination that moves", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "voice-moves-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const start = (model: string) =>
    startNode({
      dataDir,
      ...remoteDefault(server.baseUrl),
      llmTiers: tierSettings({ transcribe: { model } }),
      llmPrices: { [model]: { input: 0, output: 0, perMinute: 0.01 } }
    })

  it("voids a consent: the status asks again and a transcription is 409 until the new destination is agreed to", async () => {
    const first = await start("whisper-1")
    const owner = await registerOwner(first)
    const agreedTo = (await run(owner.client.api.voice.stt())).consentKey
    await run(owner.client.api.voice.consent({ payload: { consentKey: agreedTo } }))
    // Closing removes the node's own fresh folder, not this one: the second node opens the same database.
    await first.close()

    const moved = await start("gpt-4o-transcribe")
    try {
      const client = new Client(moved.url)
      await run(
        client.api.authPublic.login({
          payload: { email: owner.registration.email, password: owner.registration.password }
        })
      )
      const status = await run(client.api.voice.stt())
      expect(status).toMatchObject({
        model: "gpt-4o-transcribe",
        consented: false,
        consentedAt: null,
        usdPerMinute: 0.01
      })
      expect(status.consentKey).not.toBe(agreedTo)

      const answer = await transcribe(client, [{ content: audioOf(100) }])
      expect([answer.status, answer.body.error, answer.body.details.consentKey]).toEqual([
        409,
        "stt_destination_changed",
        status.consentKey
      ])
      expect(server.requestsFor("transcriptions")).toHaveLength(0)

      await run(client.api.voice.consent({ payload: { consentKey: status.consentKey } }))
      server.script("transcriptions", { text: "agreed again", seconds: 30 })
      const after = await transcribe(client, [{ content: audioOf(100) }])
      expect([after.status, after.body.text, after.body.model]).toEqual([200, "agreed again", "gpt-4o-transcribe"])
      expect(after.body.costUsd).toBeCloseTo(0.005, 10)
    } finally {
      await moved.close()
    }
  })
})
