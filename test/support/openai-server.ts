/**
 * A real HTTP server on a free loopback port that speaks the OpenAI wire protocol, scripted per
 * test: model calls in tests go over real HTTP to it, never to a provider. Each route answers
 * from its queue of scripted replies, then from its handler function, then with a default
 * (a short deterministic reply, or in demo mode the studio's work: extensions/models/demo/studio-work.ts, the node's demo models), so an
 * unscripted node still runs (openai-server-cli.ts).
 * Every request is recorded, so a test can assert what was (or was not) asked, and of which model.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  answerChat,
  defaultChat,
  inputsOf,
  readBody,
  readMultipart,
  routeOf,
  sendError,
  sendJson,
  sleep,
  usageOfImage
} from "./openai-answers.ts"
import { tinyPng, tokensOf, vectorOf } from "../../extensions/models/demo/answers.ts"
import { demoChat } from "../../extensions/models/demo/studio-work.ts"
import type {
  ChatReply,
  EmbeddingsReply,
  Handler,
  ImagesReply,
  ModelsReply,
  ReceivedRequest,
  RequestBody,
  Reply,
  Route,
  SpeechReply,
  TranscriptionReply,
  VideoContentReply,
  VideoJobReply
} from "./openai-replies.ts"
import { silentSpeech, tinyMp4 } from "./speech-audio.ts"

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
  /** Unscripted chat is answered as a model answers the studio (the node's demo models), not with a short echo. */
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
        const chat: ChatReply =
          (reply as ChatReply | undefined) ??
          (options.demo === true ? demoChat(request.body) : null) ??
          defaultChat(request)
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
