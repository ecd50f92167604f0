/**
 * image.generate over the host's real llm adapter and Models, against the scripted
 * OpenAI-protocol server's images API over real HTTP, with a real SQLite ledger: a PNG in the
 * file root, the call priced by its tokens (gpt-image-1 in the table) and charged to the caller.
 */
import * as Effect from "effect/Effect"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { LlmLedger } from "../../../extensions/models/ledger.ts"
import { remoteDefault } from "../../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { solidPng } from "../../support/png.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

let server: OpenAiServer
let skills: SkillHarness
let unconfigured: SkillHarness

beforeAll(async () => {
  server = await startOpenAiServer()
  skills = await startSkills({ settings: remoteDefault(server.baseUrl) })
  unconfigured = await startSkills()
})
afterAll(async () => {
  await Promise.all([skills.close(), unconfigured.close()])
  await server.close()
})
beforeEach(() => server.reset())

const recentCalls = () =>
  skills.run(Effect.flatMap(LlmLedger, (ledger) => ledger.usage({ kind: "node" }))).then((usage) => usage.recent)

describe("image.generate", () => {
  it("saves the model's picture as a PNG in the file root and records the call, priced by its tokens, for the caller and project", async () => {
    const picture = solidPng(64, 32)
    server.script("images", {
      images: [{ b64Json: picture.toString("base64"), revisedPrompt: "A calm blue sea." }],
      usage: { inputTokens: 100, outputTokens: 1000 }
    })
    const outcome = await skills.invoke(
      "image.generate",
      { prompt: "The sea, calm and blue.", path: "art/sea", size: "1536x1024" },
      { projectId: null }
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        path: "art/sea.png",
        bytes: picture.length,
        width: 64,
        height: 32,
        mime: "image/png",
        created: true,
        model: "gpt-image-1",
        costUsd: 0.0405,
        revisedPrompt: "A calm blue sea."
      }
    })
    expect(readFileSync(join(skills.dataDir, "uploads", "ada", "art", "sea.png")).equals(picture)).toBe(true)
    const [request] = server.requestsFor("images")
    expect(request?.body).toMatchObject({
      model: "gpt-image-1",
      prompt: "The sea, calm and blue.",
      size: "1536x1024",
      n: 1
    })
    expect(request?.body).not.toHaveProperty("response_format")
    expect((await recentCalls())[0]).toMatchObject({
      tier: "image",
      model: "gpt-image-1",
      beingId: "ada",
      purpose: "skill image.generate",
      promptTokens: 100,
      completionTokens: 1000,
      costUsd: 0.0405
    })
  })

  it("charges a call inside a project to that project", async () => {
    await skills.invoke("image.generate", { prompt: "A lighthouse.", path: "light.png" }, { projectId: "p-3" })
    expect((await recentCalls())[0]).toMatchObject({ tier: "image", projectId: "p-3" })
  })

  it("refuses plainly with no image model bound, saving nothing", async () => {
    const outcome = await unconfigured.invoke("image.generate", { prompt: "A fox.", path: "fox.png" })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^No model is bound to the 'image' tier yet: bind the tier in Settings → Models/)
    })
    expect(existsSync(join(unconfigured.dataDir, "uploads", "ada", "fox.png"))).toBe(false)
  })

  it("refuses an answer that is not a PNG (still recorded: it was paid for) and a path that is not one", async () => {
    server.script("images", { images: [{ b64Json: Buffer.from("GIF89a not a png").toString("base64") }] })
    expect(await skills.invoke("image.generate", { prompt: "A gif.", path: "odd.png" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a PNG")
    })
    expect(existsSync(join(skills.dataDir, "uploads", "ada", "odd.png"))).toBe(false)
    expect((await recentCalls())[0]).toMatchObject({ tier: "image", purpose: "skill image.generate" })

    const before = server.requestsFor("images").length
    expect(await skills.invoke("image.generate", { prompt: "A cat.", path: "cat.jpg" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("not a .png")
    })
    expect(await skills.invoke("image.generate", { prompt: "A cat.", path: "../../cat.png" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("climbs out")
    })
    expect(await skills.invoke("image.generate", { prompt: " ", path: "cat.png" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("say what to draw")
    })
    expect(await skills.invoke("image.generate", { prompt: "A cat.", path: "cat.png", size: "4x4" })).toMatchObject({
      ok: false
    })
    expect(server.requestsFor("images").length).toBe(before)
  })

  it("is listed in the image family with its schemas", async () => {
    const skill = (await skills.list()).find((listed) => listed.name === "image.generate")
    expect(skill).toMatchObject({
      family: "image",
      pluginId: "@svc/image",
      worldActing: false,
      inputSchema: { required: ["prompt", "path"] },
      outputSchema: { required: expect.arrayContaining(["path", "bytes", "costUsd"]) }
    })
  })
})
