/**
 * A real HTTP server on a free loopback port that speaks the OpenAI wire protocol, scripted per
 * test: model calls in tests go over real HTTP to it, never to a provider. Each route answers
 * from its queue of scripted replies, then from its handler function, then with a default
 * (a short deterministic reply, or in demo mode the studio's work: openai-demo.ts), so an
 * unscripted node still runs (openai-server-cli.ts).
 * Every request is recorded, so a test can assert what was (or was not) asked, and of which model.
 */
import { createHash } from "node:crypto"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exampleOf } from "./json-schema-example.ts"
import { textOf } from "./chat-text.ts"
import { demoChat } from "./openai-demo.ts"
import { silentSpeech, tinyMp4 } from "./speech-audio.ts"

export type Route =
  | "chat"
  | "embeddings"
  | "images"
  | "transcriptions"
  | "speech"
  | "videos"
  | "video"
  | "videoContent"
  | "models"

export interface ReceivedFile {
  readonly field: string
  readonly filename: string
  readonly type: string
  readonly size: number
  /** The file's SHA-256 in hex, so a test can tell the bytes arrived whole. */
  readonly sha256: string
}

/** One message of a chat call, as the OpenAI protocol carries it. */
export interface ChatMessage {
  readonly role: string
  /** A string, or an array of parts (`{ type: "text", text }`, an image…); null beside tool calls. */
  readonly content?: unknown
  readonly tool_calls?: ReadonlyArray<{
    readonly id: string
    readonly type?: string
    readonly function: { readonly name: string; readonly arguments: string }
  }>
  readonly tool_call_id?: string
}

/**
 * A request's JSON body, as far as the scripted routes and the tests read it (the fields of
 * OpenAI's chat, embeddings and images requests); any other field is kept, unread. It is the
 * node's own request seen from outside, so it is taken as sent, not checked.
 */
export interface RequestBody {
  readonly model?: unknown
  readonly messages?: ReadonlyArray<ChatMessage>
  readonly tools?: ReadonlyArray<{
    readonly type: string
    readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown }
  }>
  readonly response_format?: {
    readonly type: string
    readonly json_schema?: {
      readonly name?: string
      readonly schema?: Readonly<Record<string, unknown>>
      readonly strict?: boolean
    }
  }
  readonly stream?: boolean
  readonly stream_options?: { readonly include_usage?: boolean }
  readonly input?: unknown
  readonly prompt?: string
  readonly n?: number
  readonly [field: string]: unknown
}

export interface ReceivedRequest {
  readonly route: Route
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  /** The JSON body; for a multipart upload, `fields` holds its text fields instead. */
  readonly body: RequestBody
  /** A multipart upload's text fields (a transcription's `model`, `response_format`…); empty otherwise. */
  readonly fields: Readonly<Record<string, string>>
  readonly files: ReadonlyArray<ReceivedFile>
  /** The body's `model`, the easiest way to tell which tier a call went to. */
  readonly model: string | null
}

/** Refuse with this status; the body is OpenAI's `{ error: { message, type, code } }`. */
export interface ErrorReply {
  readonly error: { readonly status: number; readonly message?: string; readonly headers?: Record<string, string> }
  readonly delayMs?: number
}

export interface ScriptedToolCall {
  readonly id?: string
  readonly name: string
  /** An object is sent as its JSON text; a string as is (so a test can send broken JSON). */
  readonly arguments: unknown
}

export interface ChatReply {
  readonly content?: string | null
  readonly toolCalls?: ReadonlyArray<ScriptedToolCall>
  readonly finishReason?: string
  /** Counted from the text (4 characters a token) when absent. */
  readonly usage?: { readonly promptTokens: number; readonly completionTokens: number }
  /** Leave `usage` out of the answer, as some local servers do. */
  readonly omitUsage?: boolean
  /** Before the answer (a stream: before its first byte). */
  readonly delayMs?: number
  /** Between the chunks of a stream. */
  readonly chunkDelayMs?: number
}

export interface EmbeddingsReply {
  /** One vector per input; derived from each input's text when absent. */
  readonly vectors?: ReadonlyArray<ReadonlyArray<number>>
  readonly promptTokens?: number
  readonly delayMs?: number
}

export interface ImagesReply {
  readonly images?: ReadonlyArray<{ readonly b64Json?: string; readonly url?: string; readonly revisedPrompt?: string }>
  /** Tokens billed, as gpt-image models report them; default the prompt's tokens in and 272 out (one small picture). */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number }
  readonly delayMs?: number
}

export interface TranscriptionReply {
  readonly text: string
  /**
   * The audio's length, answered as OpenAI's whisper-1 does (`usage: { type: "duration", seconds }`); left out when
   * absent.
   */
  readonly seconds?: number
  readonly delayMs?: number
}

export interface SpeechReply {
  /** The audio's bytes; by default a short silent clip in the format asked for (speech-audio.ts). */
  readonly audio?: Uint8Array
  readonly delayMs?: number
}

/** A video job as the videos API answers it (`POST /v1/videos`, `GET /v1/videos/:id`). */
export interface VideoJobReply {
  /** Default: "queued" when created, "completed" when asked after. */
  readonly status?: "queued" | "in_progress" | "completed" | "failed"
  /** The seconds made; default the seconds asked for. */
  readonly seconds?: string
  /** Why a failed render failed (the job's `error`). */
  readonly failure?: { readonly code: string; readonly message: string }
  readonly delayMs?: number
}

export interface VideoContentReply {
  readonly video?: Uint8Array
  readonly delayMs?: number
}

export interface ModelsReply {
  readonly ids: ReadonlyArray<string>
}

interface Replies {
  readonly chat: ChatReply
  readonly embeddings: EmbeddingsReply
  readonly images: ImagesReply
  readonly transcriptions: TranscriptionReply
  readonly speech: SpeechReply
  readonly videos: VideoJobReply
  readonly video: VideoJobReply
  readonly videoContent: VideoContentReply
  readonly models: ModelsReply
}

export type Reply<R extends Route> = Replies[R] | ErrorReply
export type Handler<R extends Route> = (request: ReceivedRequest) => Reply<R> | Promise<Reply<R>>

const routes: Record<string, { readonly method: string; readonly route: Route }> = {
  "/v1/chat/completions": { method: "POST", route: "chat" },
  "/v1/embeddings": { method: "POST", route: "embeddings" },
  "/v1/images/generations": { method: "POST", route: "images" },
  "/v1/audio/transcriptions": { method: "POST", route: "transcriptions" },
  "/v1/audio/speech": { method: "POST", route: "speech" },
  "/v1/videos": { method: "POST", route: "videos" },
  "/v1/models": { method: "GET", route: "models" }
}

/** The routes with an id in their path: a video job, and its content. */
const routeOf = (method: string | undefined, path: string): Route | null => {
  const known = routes[path]
  if (known !== undefined) return known.method === method ? known.route : null
  if (method !== "GET") return null
  if (/^\/v1\/videos\/[^/]+$/.test(path)) return "video"
  if (/^\/v1\/videos\/[^/]+\/content$/.test(path)) return "videoContent"
  return null
}

/** A 1×1 transparent PNG: the default generated image. */
const tinyPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

const tokensOf = (text: string) => Math.ceil(text.length / 4)

const usageOfImage = (scripted: ImagesReply, prompt: string) => {
  const input = scripted.usage?.inputTokens ?? tokensOf(prompt)
  const output = scripted.usage?.outputTokens ?? 272
  return { input_tokens: input, output_tokens: output, total_tokens: input + output }
}

const lastUserText = (messages: ReadonlyArray<ChatMessage>): string => {
  const last = [...messages].reverse().find((message) => message.role === "user")
  return last === undefined ? "" : textOf(last.content)
}

/** Unscripted: JSON that fits the requested schema, or a short reply naming the model. */
const defaultChat = (request: ReceivedRequest): ChatReply => {
  const format = request.body.response_format
  if (format?.type === "json_schema") return { content: JSON.stringify(exampleOf(format.json_schema?.schema ?? {})) }
  if (format?.type === "json_object") return { content: "{}" }
  const asked = lastUserText(request.body.messages ?? []).slice(0, 200)
  return { content: `A scripted reply from ${request.model ?? "a model"} to: ${asked}` }
}

/** A vector that depends only on the text, so equal inputs embed equally. */
const vectorOf = (text: string, dimensions = 8): number[] => {
  const vector = new Array<number>(dimensions).fill(0)
  for (let i = 0; i < text.length; i++) vector[i % dimensions] += text.charCodeAt(i) / 1000
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

const sleep = (ms: number | undefined) => (ms ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve())

const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Multipart is parsed by the platform's own FormData (undici), not by hand. */
const readMultipart = async (request: IncomingMessage, raw: Buffer) => {
  const form = await new Request("http://local/", {
    method: "POST",
    headers: { "content-type": String(request.headers["content-type"]) },
    body: new Uint8Array(raw)
  }).formData()
  const fields: Record<string, string> = {}
  const files: ReceivedFile[] = []
  for (const [field, value] of form) {
    if (typeof value === "string") fields[field] = value
    else {
      const sha256 = createHash("sha256")
        .update(new Uint8Array(await value.arrayBuffer()))
        .digest("hex")
      files.push({ field, filename: value.name, type: value.type, size: value.size, sha256 })
    }
  }
  return { body: {} as RequestBody, fields, files }
}

const sendJson = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

const sendError = (response: ServerResponse, reply: ErrorReply) =>
  sendJson(
    response,
    reply.error.status,
    {
      error: {
        message: reply.error.message ?? `Scripted failure ${reply.error.status}`,
        type: reply.error.status === 429 ? "rate_limit_exceeded" : "server_error",
        code: null
      }
    },
    reply.error.headers
  )

const toolCallsOf = (reply: ChatReply) =>
  (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function" as const,
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments)
    }
  }))

const usageOf = (request: ReceivedRequest, reply: ChatReply, toolCalls: ReturnType<typeof toolCallsOf>) => {
  const promptTokens = reply.usage?.promptTokens ?? tokensOf(JSON.stringify(request.body.messages ?? []))
  const completionTokens =
    reply.usage?.completionTokens ??
    tokensOf((reply.content ?? "") + toolCalls.map((call) => call.function.arguments).join(""))
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens
  }
}

const answerChat = async (
  request: ReceivedRequest,
  reply: ChatReply,
  response: ServerResponse,
  pace: { readonly delayMs: number; readonly chunkDelayMs: number }
) => {
  await sleep(pace.delayMs)
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`
  const created = Math.floor(Date.now() / 1000)
  const model = request.model ?? "scripted"
  const toolCalls = toolCallsOf(reply)
  const content = reply.content === undefined ? (toolCalls.length > 0 ? null : "") : reply.content
  const finishReason = reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop")
  const usage = usageOf(request, reply, toolCalls)

  if (request.body.stream !== true) {
    sendJson(response, 200, {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content,
            refusal: null,
            ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {})
          },
          finish_reason: finishReason,
          logprobs: null
        }
      ],
      ...(reply.omitUsage ? {} : { usage })
    })
    return
  }

  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive"
  })
  const send = async (delta: unknown, finish: string | null = null) => {
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] })}\n\n`
    )
    await sleep(pace.chunkDelayMs)
  }
  await send({ role: "assistant", content: "" })
  // Words keep their following space, so the pieces join back to the exact text.
  for (const piece of (content ?? "").match(/\S+\s*|\s+/g) ?? []) await send({ content: piece })
  for (const [index, call] of toolCalls.entries()) {
    await send({
      tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }]
    })
    const args = call.function.arguments
    const half = Math.ceil(args.length / 2)
    for (const part of [args.slice(0, half), args.slice(half)].filter((part) => part !== "")) {
      await send({ tool_calls: [{ index, function: { arguments: part } }] })
    }
  }
  await send({}, finishReason)
  if (request.body.stream_options?.include_usage === true && !reply.omitUsage) {
    response.write(
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`
    )
  }
  response.end("data: [DONE]\n\n")
}

const inputsOf = (input: unknown): string[] =>
  (Array.isArray(input) ? input : [input]).map((item) => (typeof item === "string" ? item : JSON.stringify(item)))

export interface OpenAiServer {
  /** `http://127.0.0.1:<port>/v1`: what a client takes as its base URL. */
  readonly baseUrl: string
  /** Every request received, oldest first. */
  readonly requests: ReadonlyArray<ReceivedRequest>
  readonly requestsFor: (route: Route) => ReadonlyArray<ReceivedRequest>
  /** Queues replies for a route, answered in order before its handler or default. */
  readonly script: <R extends Route>(route: R, ...replies: ReadonlyArray<Reply<R>>) => void
  /** Answers a route's requests (after its queue is empty) from a function of the request. */
  readonly handle: <R extends Route>(route: R, handler: Handler<R>) => void
  /** Forgets scripts, handlers and recorded requests. */
  readonly reset: () => void
  readonly close: () => Promise<void>
}

export interface OpenAiServerOptions {
  readonly port?: number
  /** Called with each request as it arrives (the CLI prints it). */
  readonly onRequest?: (request: ReceivedRequest) => void
  /** Waits for every reply that names none of its own. */
  readonly delayMs?: number
  readonly chunkDelayMs?: number
  /** Unscripted chat is answered as a model answers the studio (openai-demo.ts), not with a short echo. */
  readonly demo?: boolean
}

export const startOpenAiServer = async (options: OpenAiServerOptions = {}): Promise<OpenAiServer> => {
  const requests: ReceivedRequest[] = []
  const queues = new Map<Route, Array<Reply<Route>>>()
  const handlers = new Map<Route, Handler<Route>>()
  const videoJobs = new Map<
    string,
    { model: string; prompt: string | null; seconds: string; size: string; createdAt: number }
  >()

  const replyFor = async (request: ReceivedRequest): Promise<Reply<Route> | undefined> => {
    const queued = queues.get(request.route)?.shift()
    if (queued !== undefined) return queued
    const handler = handlers.get(request.route)
    return handler === undefined ? undefined : handler(request)
  }

  const serve = async (incoming: IncomingMessage, response: ServerResponse) => {
    const path = new URL(incoming.url ?? "/", "http://local").pathname
    const route = routeOf(incoming.method, path)
    if (route === null) {
      sendError(response, {
        error: { status: 404, message: `No route ${incoming.method} ${path} on the scripted server` }
      })
      return
    }
    const raw = await readBody(incoming)
    const multipart = String(incoming.headers["content-type"] ?? "").startsWith("multipart/form-data")
    const { body, fields, files } = multipart
      ? await readMultipart(incoming, raw)
      : { body: (raw.length > 0 ? JSON.parse(raw.toString("utf8")) : {}) as RequestBody, fields: {}, files: [] }
    const model = body.model ?? fields.model
    const request: ReceivedRequest = {
      route,
      method: incoming.method ?? "GET",
      path,
      headers: incoming.headers,
      body,
      fields,
      files,
      model: typeof model === "string" ? model : null
    }
    requests.push(request)
    options.onRequest?.(request)

    const reply = await replyFor(request)
    if (reply !== undefined && "error" in reply) {
      await sleep(reply.delayMs ?? options.delayMs)
      sendError(response, reply)
      return
    }
    switch (request.route) {
      case "chat": {
        const chat =
          (reply as ChatReply | undefined) ?? (options.demo === true ? demoChat(request) : null) ?? defaultChat(request)
        return answerChat(request, chat, response, {
          delayMs: chat.delayMs ?? options.delayMs ?? 0,
          chunkDelayMs: chat.chunkDelayMs ?? options.chunkDelayMs ?? 0
        })
      }
      case "embeddings": {
        const scripted = (reply ?? {}) as EmbeddingsReply
        await sleep(scripted.delayMs ?? options.delayMs)
        const inputs = inputsOf(body.input)
        const promptTokens = scripted.promptTokens ?? tokensOf(inputs.join(""))
        return sendJson(response, 200, {
          object: "list",
          model: request.model,
          data: inputs.map((text, index) => ({
            object: "embedding",
            index,
            embedding: scripted.vectors?.[index] ?? vectorOf(text)
          })),
          usage: { prompt_tokens: promptTokens, total_tokens: promptTokens }
        })
      }
      case "images": {
        const scripted = (reply ?? {}) as ImagesReply
        await sleep(scripted.delayMs ?? options.delayMs)
        const images: NonNullable<ImagesReply["images"]> =
          scripted.images ?? Array.from({ length: Number(body.n ?? 1) }, () => ({ b64Json: tinyPng }))
        return sendJson(response, 200, {
          created: Math.floor(Date.now() / 1000),
          data: images.map((image) => ({
            ...(image.b64Json === undefined ? {} : { b64_json: image.b64Json }),
            ...(image.url === undefined ? {} : { url: image.url }),
            ...(image.revisedPrompt === undefined ? {} : { revised_prompt: image.revisedPrompt })
          })),
          usage: usageOfImage(scripted, String(body.prompt ?? ""))
        })
      }
      case "transcriptions": {
        const scripted = (reply ?? {
          text: `A scripted transcript of ${files[0]?.filename ?? "nothing"}`
        }) as TranscriptionReply
        await sleep(scripted.delayMs ?? options.delayMs)
        if (fields.response_format === "text") {
          response.writeHead(200, { "content-type": "text/plain" })
          response.end(scripted.text)
          return
        }
        return sendJson(response, 200, {
          text: scripted.text,
          ...(scripted.seconds === undefined ? {} : { usage: { type: "duration", seconds: scripted.seconds } })
        })
      }
      case "speech": {
        const scripted = (reply ?? {}) as SpeechReply
        await sleep(scripted.delayMs ?? options.delayMs)
        const asked: unknown = body.response_format
        const format = typeof asked === "string" ? asked : "mp3"
        const audio = scripted.audio ?? silentSpeech(format)
        if (audio === null)
          return sendError(response, {
            error: { status: 400, message: `The scripted server speaks mp3 or wav, not ${format}` }
          })
        response.writeHead(200, {
          "content-type": format === "wav" ? "audio/wav" : "audio/mpeg",
          "content-length": String(audio.byteLength)
        })
        response.end(audio)
        return
      }
      case "videos":
      case "video": {
        const scripted = (reply ?? {}) as VideoJobReply
        await sleep(scripted.delayMs ?? options.delayMs)
        const id = route === "videos" ? `video_${videoJobs.size + 1}` : path.split("/")[3]
        const job =
          route === "videos"
            ? {
                model: String(fields.model ?? "sora-2"),
                prompt: fields.prompt ?? null,
                seconds: fields.seconds ?? "4",
                size: fields.size ?? "720x1280",
                createdAt: Math.floor(Date.now() / 1000)
              }
            : videoJobs.get(id)
        if (job === undefined) return sendError(response, { error: { status: 404, message: `No video ${id}` } })
        videoJobs.set(id, job)
        const status = scripted.status ?? (route === "videos" ? "queued" : "completed")
        return sendJson(response, 200, {
          id,
          object: "video",
          model: job.model,
          prompt: job.prompt,
          status,
          progress: status === "completed" ? 100 : 0,
          seconds: scripted.seconds ?? job.seconds,
          size: job.size,
          created_at: job.createdAt,
          completed_at: status === "completed" ? Math.floor(Date.now() / 1000) : null,
          expires_at: null,
          error: scripted.failure ?? null,
          remixed_from_video_id: null
        })
      }
      case "videoContent": {
        const scripted = (reply ?? {}) as VideoContentReply
        await sleep(scripted.delayMs ?? options.delayMs)
        const video = scripted.video ?? tinyMp4
        response.writeHead(200, { "content-type": "video/mp4", "content-length": String(video.byteLength) })
        response.end(video)
        return
      }
      case "models": {
        const seen = requests.map((r) => r.model).filter((model): model is string => model !== null)
        const ids = (reply as ModelsReply | undefined)?.ids ?? [...new Set(["scripted-model", ...seen])]
        return sendJson(response, 200, {
          object: "list",
          data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "scripted" }))
        })
      }
    }
  }

  const server = createServer((incoming, response) => {
    serve(incoming, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendError(response, { error: { status: 400, message: `Unreadable request: ${String(error)}` } })
      else response.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    requestsFor: (route) => requests.filter((request) => request.route === route),
    script: (route, ...replies) => {
      const queue = queues.get(route) ?? []
      queue.push(...replies)
      queues.set(route, queue)
    },
    handle: (route, handler) => {
      handlers.set(route, handler as Handler<Route>)
    },
    reset: () => {
      requests.length = 0
      queues.clear()
      handlers.clear()
      videoJobs.clear()
    },
    close: () =>
      new Promise<void>((resolve) => {
        // A delayed reply may still hold its socket; closing it is the point of closing.
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
