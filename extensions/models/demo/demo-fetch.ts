/**
 * The demo models as the `openai` SDK's `fetch`: the built-in provider answers in this process, so
 * no socket opens and nothing leaves the host. It speaks the part of the OpenAI protocol the node
 * calls: chat (whole or streamed, with tool calls and usage), embeddings, images, speech and
 * transcription, and the model list; videos are refused with the protocol's error.
 */
import { DEMO_MODEL } from "../contract/providers.ts"
import { plainReply, tinyPng, tokensOf, vectorOf, type StructuredRequest } from "./answers.ts"
import { demoChat, type DemoReply } from "./studio-work.ts"

/** The demo provider's base URL: not a network address; the SDK hands every request to `demoFetch`. */
export const DEMO_BASE_URL = "builtin://demo/v1"

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const refused = (status: number, message: string) =>
  json(status, { error: { message, type: "invalid_request_error", code: null } })

interface ChatBody extends StructuredRequest {
  readonly stream?: boolean
}

const chatAnswer = (body: ChatBody) => {
  const reply: DemoReply = demoChat(body) ?? plainReply(body, "A reply from the demo model (placeholder text)")
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: "function" as const,
    function: { name: call.name, arguments: JSON.stringify(call.arguments) }
  }))
  const prompt = tokensOf(JSON.stringify(body.messages ?? []))
  const completion = tokensOf(reply.content + toolCalls.map((call) => call.function.arguments).join(""))
  return {
    content: reply.content,
    toolCalls,
    finishReason: toolCalls.length > 0 ? "tool_calls" : "stop",
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
  }
}

const chat = (body: ChatBody): Response => {
  const answer = chatAnswer(body)
  const head = { id: `chatcmpl-demo-${Date.now()}`, created: Math.floor(Date.now() / 1000), model: DEMO_MODEL }
  if (body.stream !== true) {
    const message = { role: "assistant", content: answer.content, refusal: null }
    return json(200, {
      ...head,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: answer.toolCalls.length > 0 ? { ...message, tool_calls: answer.toolCalls } : message,
          finish_reason: answer.finishReason,
          logprobs: null
        }
      ],
      usage: answer.usage
    })
  }
  const chunk = (delta: unknown, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  // Word by word, so a reader sees the answer arrive as it would from a model.
  const pieces = [
    chunk({ role: "assistant", content: "" }),
    ...(answer.content.match(/\S+\s*|\s+/g) ?? []).map((piece) => chunk({ content: piece })),
    ...answer.toolCalls.map((call, index) => chunk({ tool_calls: [{ index, ...call }] })),
    chunk({}, answer.finishReason),
    `data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [], usage: answer.usage })}\n\n`,
    "data: [DONE]\n\n"
  ]
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece))
      controller.close()
    }
  })
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream" } })
}

const inputsOf = (input: unknown): ReadonlyArray<string> =>
  (Array.isArray(input) ? input : [input]).map((item) => (typeof item === "string" ? item : JSON.stringify(item)))

/** A short silent WAV (16-bit mono, 8 kHz, a tenth of a second): what the demo says aloud. */
const silence = (): Uint8Array<ArrayBuffer> => {
  const samples = 800
  const wav = Buffer.alloc(44 + samples * 2)
  wav.write("RIFF", 0)
  wav.writeUInt32LE(36 + samples * 2, 4)
  wav.write("WAVEfmt ", 8)
  wav.writeUInt32LE(16, 16)
  wav.writeUInt16LE(1, 20)
  wav.writeUInt16LE(1, 22)
  wav.writeUInt32LE(8000, 24)
  wav.writeUInt32LE(16000, 28)
  wav.writeUInt16LE(2, 32)
  wav.writeUInt16LE(16, 34)
  wav.write("data", 36)
  wav.writeUInt32LE(samples * 2, 40)
  return new Uint8Array(wav)
}

const bodyOf = async (init: RequestInit | undefined): Promise<Record<string, unknown>> => {
  if (typeof init?.body !== "string") return {}
  try {
    const parsed: unknown = JSON.parse(init.body)
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

export const demoFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url)
  const path = url.pathname.replace(/^\/+v1/, "").replace(/^\/+/, "/")
  const method = (init?.method ?? "GET").toUpperCase()
  if (method === "GET" && path === "/models")
    return json(200, { object: "list", data: [{ id: DEMO_MODEL, object: "model", created: 0, owned_by: "node" }] })
  if (method !== "POST") return refused(404, `The demo models have no ${method} ${path}.`)
  switch (path) {
    case "/chat/completions":
      return chat((await bodyOf(init)) as ChatBody)
    case "/embeddings": {
      const inputs = inputsOf((await bodyOf(init)).input)
      return json(200, {
        object: "list",
        model: DEMO_MODEL,
        data: inputs.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })),
        usage: { prompt_tokens: tokensOf(inputs.join("")), total_tokens: tokensOf(inputs.join("")) }
      })
    }
    case "/images/generations":
      return json(200, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: tinyPng }] })
    case "/audio/speech":
      return new Response(silence(), { status: 200, headers: { "content-type": "audio/wav" } })
    case "/audio/transcriptions":
      return json(200, { text: "A demo transcript: the demo models hear nothing." })
    default:
      return refused(404, `The demo models make nothing at ${path}: bind a real model in Settings → Models.`)
  }
}
