/**
 * How the scripted OpenAI server (openai-server.ts) answers: the route of each request, the
 * defaults for what no test scripted, and each reply written to the wire (chat as JSON or as a
 * stream of chunks, with its tool calls and usage).
 */
import { createHash } from "node:crypto"
import type { IncomingMessage, ServerResponse } from "node:http"
import { plainReply, tokensOf } from "../../extensions/models/demo/answers.ts"
import type {
  ChatReply,
  ErrorReply,
  ImagesReply,
  ReceivedFile,
  ReceivedRequest,
  RequestBody,
  Route
} from "./openai-replies.ts"

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
export const routeOf = (method: string | undefined, path: string): Route | null => {
  const known = routes[path]
  if (known !== undefined) return known.method === method ? known.route : null
  if (method !== "GET") return null
  if (/^\/v1\/videos\/[^/]+$/.test(path)) return "video"
  if (/^\/v1\/videos\/[^/]+\/content$/.test(path)) return "videoContent"
  return null
}

export const usageOfImage = (scripted: ImagesReply, prompt: string) => {
  const input = scripted.usage?.inputTokens ?? tokensOf(prompt)
  const output = scripted.usage?.outputTokens ?? 272
  return { input_tokens: input, output_tokens: output, total_tokens: input + output }
}

/** Unscripted: JSON that fits the requested schema, or a short reply naming the model. */
export const defaultChat = (request: ReceivedRequest): ChatReply =>
  plainReply(request.body, `A scripted reply from ${request.model ?? "a model"}`)

export const sleep = (ms: number | undefined) =>
  ms ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()

export const readBody = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Multipart is parsed by the platform's own FormData (undici), not by hand. */
export const readMultipart = async (request: IncomingMessage, raw: Buffer) => {
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

export const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {}
) => {
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify(body))
}

export const sendError = (response: ServerResponse, reply: ErrorReply) =>
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

export const answerChat = async (
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

export const inputsOf = (input: unknown): string[] =>
  (Array.isArray(input) ? input : [input]).map((item) => (typeof item === "string" ? item : JSON.stringify(item)))
