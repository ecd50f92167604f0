/**
 * The scripted model server speaks the wire protocol the `openai` SDK expects on the routes the
 * Models tests do not reach (images, transcriptions, the model list), and scripts as documented:
 * handlers, delays, errors with headers, a record of what was asked.
 */
import { createHash } from "node:crypto"
import OpenAI, { toFile } from "openai"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"

let server: OpenAiServer
let client: OpenAI
beforeAll(async () => {
  server = await startOpenAiServer()
  client = new OpenAI({
    baseURL: server.baseUrl,
    apiKey: "sk-fixture",
    maxRetries: 0,
    organization: null,
    project: null
  })
})
afterAll(() => server.close())
beforeEach(() => server.reset())

describe("the scripted OpenAI-compatible server", () => {
  it("generates images, by default and as scripted", async () => {
    const unscripted = await client.images.generate({ model: "gpt-image-1", prompt: "a lighthouse", n: 2 })
    expect(unscripted.data).toHaveLength(2)
    expect(
      Buffer.from(unscripted.data?.[0].b64_json ?? "", "base64")
        .subarray(1, 4)
        .toString()
    ).toBe("PNG")
    server.script("images", { images: [{ url: "https://images.example/1.png", revisedPrompt: "a tall lighthouse" }] })
    const scripted = await client.images.generate({ model: "gpt-image-1", prompt: "a lighthouse" })
    expect(scripted.data?.[0]).toEqual({ url: "https://images.example/1.png", revised_prompt: "a tall lighthouse" })
    expect(server.requestsFor("images").map((request) => request.body.prompt)).toEqual(["a lighthouse", "a lighthouse"])
  })

  it("transcribes a multipart upload and records its fields and file", async () => {
    server.script("transcriptions", { text: "Hello from the voice note." })
    const bytes = Buffer.from("RIFF....WAVEfmt ")
    const audio = await toFile(bytes, "note.wav", { type: "audio/wav" })
    const result = await client.audio.transcriptions.create({ model: "gpt-4o-mini-transcribe", file: audio })
    expect(result.text).toBe("Hello from the voice note.")
    const [request] = server.requestsFor("transcriptions")
    expect(request.model).toBe("gpt-4o-mini-transcribe")
    expect(request.files).toEqual([
      {
        field: "file",
        filename: "note.wav",
        type: "audio/wav",
        size: 16,
        sha256: createHash("sha256").update(bytes).digest("hex")
      }
    ])
  })

  it("lists the models it was asked for", async () => {
    await client.chat.completions.create({ model: "llama3.1", messages: [{ role: "user", content: "Hi" }] })
    const models = await client.models.list()
    expect(models.data.map((model) => model.id)).toEqual(["scripted-model", "llama3.1"])
  })

  it("answers from a handler once its queue is empty, after the delay asked, and fails on demand", async () => {
    server.script("chat", { content: "queued" })
    server.handle("chat", (request) => ({ content: `handled ${request.model}`, delayMs: 150 }))
    const queued = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "1" }] })
    expect(queued.choices[0].message.content).toBe("queued")
    const started = Date.now()
    const handled = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "2" }] })
    expect(handled.choices[0].message.content).toBe("handled m")
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)

    server.script("chat", { error: { status: 429, message: "Too many", headers: { "retry-after": "7" } } })
    const failure = await client.chat.completions
      .create({ model: "m", messages: [{ role: "user", content: "3" }] })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(OpenAI.RateLimitError)
    expect((failure as InstanceType<typeof OpenAI.RateLimitError>).headers.get("retry-after")).toBe("7")
    expect(server.requests).toHaveLength(3)
  })
})
