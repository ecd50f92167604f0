/**
 * What the voice API tests share: the scripted OpenAI-protocol server that hears the audio
 * (reset before each test), audio that proves it arrived whole, and a transcription sent as the
 * recorder in the browser sends it.
 */
import { afterAll, beforeAll, beforeEach } from "vitest"
import type { Client } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

/** Starts the model server before the file's tests and forgets what it heard before each. */
export const voiceServer = () => {
  const context = {} as { server: OpenAiServer }
  beforeAll(async () => {
    context.server = await startOpenAiServer()
  })
  afterAll(() => context.server.close())
  beforeEach(() => context.server.reset())
  return context
}

/** Bytes that look like nothing but themselves, so the server's hash proves they arrived whole. */
export const audioOf = (size: number, seed = 7) => {
  const bytes = new Uint8Array(size)
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + seed) % 251
  return bytes
}

interface Part {
  readonly content: Uint8Array
  readonly type?: string
  readonly name?: string
}

/** A transcription as the recorder in the browser sends it: a multipart form with the audio and a language. */
export const transcribe = async (client: Client, parts: ReadonlyArray<Part>, fields: Record<string, string> = {}) => {
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
