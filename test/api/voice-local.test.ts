import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../support/free-port.ts"
import { noModelSettings, remoteDefault, tierSettings } from "../support/models.ts"
import { Client, refused, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { audioOf, transcribe, voiceServer } from "./voice-support.ts"

const context = voiceServer()

describe("a local transcribe tier without fallback", () => {
  let node: TestNode
  let owner: Registered

  beforeAll(async () => {
    // The scripted server on loopback reads as a local server: nothing leaves the host.
    node = await startNode({
      llmTiers: tierSettings({ transcribe: { baseUrl: context.server.baseUrl, model: "whisper-large-v3" } }),
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

    context.server.script("transcriptions", { text: "kept at home" })
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
    expect(context.server.requestsFor("transcriptions")[0]!.model).toBe("whisper-large-v3")
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
    expect(status.reason).toContain("bind the tier in Settings → Models")
    const answer = await transcribe(owner.client, [{ content: audioOf(100) }])
    expect([answer.status, answer.body.error]).toEqual([503, "models_unavailable"])
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
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
      ...remoteDefault(context.server.baseUrl),
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
      destination: `whisper-local at ${new URL(deadLocal).host}, then gpt-4o-mini-transcribe at ${new URL(context.server.baseUrl).host} if it fails`
    })
    expect(status.note).toContain("LOCAL_LLM_FALLBACK")
    expect((await transcribe(owner.client, [{ content: audioOf(100) }])).status).toBe(403)
    await run(owner.client.api.voice.consent({ payload: { consentKey: status.consentKey } }))

    context.server.script("transcriptions", { text: "heard far away", seconds: 2 })
    const answer = await transcribe(owner.client, [{ content: audioOf(1000) }])
    expect(answer.body).toMatchObject({
      text: "heard far away",
      provider: "remote",
      leavesDevice: true,
      model: "gpt-4o-mini-transcribe"
    })
    expect(answer.body.destination).toBe(`gpt-4o-mini-transcribe at ${new URL(context.server.baseUrl).host}`)
  })

  it("refuses a recording whose minutes would pass a spend ceiling, before any audio is sent", async () => {
    // 100 kB is taken for 50 s of speech: $0.0025 at $0.003 a minute, over the $0.001 ceiling of one call.
    const answer = await transcribe(owner.client, [{ content: audioOf(100_000) }])
    expect([answer.status, answer.body.error, answer.body.details.ceiling]).toEqual([
      409,
      "spend_ceiling_reached",
      "call"
    ])
    expect(context.server.requestsFor("transcriptions")).toHaveLength(0)
  })
})

describe("a destination that moves", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "voice-moves-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  const start = (model: string) =>
    startNode({
      dataDir,
      ...remoteDefault(context.server.baseUrl),
      llmTiers: tierSettings({ transcribe: { model } }),
      llmPrices: { [model]: { input: 0, output: 0, perMinute: 0.01 } }
    })

  it("voids a consent: the status asks again and a transcription is 403 until the new destination is agreed to", async () => {
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
      // The second document: 403 until the current destination was agreed to (an older one's agreement is not it).
      expect([answer.status, answer.body.error, answer.body.details.consentKey, answer.body.details.agreedTo]).toEqual([
        403,
        "stt_consent_required",
        status.consentKey,
        agreedTo
      ])
      expect(context.server.requestsFor("transcriptions")).toHaveLength(0)

      await run(client.api.voice.consent({ payload: { consentKey: status.consentKey } }))
      context.server.script("transcriptions", { text: "agreed again", seconds: 30 })
      const after = await transcribe(client, [{ content: audioOf(100) }])
      expect([after.status, after.body.text, after.body.model]).toEqual([200, "agreed again", "gpt-4o-transcribe"])
      expect(after.body.costUsd).toBeCloseTo(0.005, 10)
    } finally {
      await moved.close()
    }
  })
})
