/**
 * The scripted OpenAI-compatible server on its own, so a reader can run the node against it and
 * watch model-driven work happen without a key: `npm run models:scripted` beside
 * `LLM_BASE_URL=http://127.0.0.1:11435/v1 npm start` (a loopback base URL is a local tier, so no
 * key is needed and nothing leaves the host). It runs in demo mode (extensions/models/demo/studio-work.ts): a studio run
 * of any generator or brief goes to done with its checks passing. Every request is printed as it
 * arrives.
 *
 *   --port <n>          port on 127.0.0.1 (default 11435; 0 picks a free one)
 *   --delay <ms>        wait before every answer (default 0)
 *   --chunk-delay <ms>  wait between streamed chunks, so streaming is visible (default 30)
 */
import { parseArgs } from "node:util"
import { startOpenAiServer } from "./openai-server.ts"
import type { ReceivedRequest } from "./openai-replies.ts"

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "11435" },
    delay: { type: "string", default: "0" },
    "chunk-delay": { type: "string", default: "30" }
  }
})

const describe = (request: ReceivedRequest): string => {
  const body = request.body
  switch (request.route) {
    case "chat": {
      const last = Array.isArray(body.messages) ? body.messages.at(-1) : undefined
      const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "")
      const extras = [
        body.stream === true ? "stream" : null,
        Array.isArray(body.tools) ? `${body.tools.length} tools` : null,
        body.response_format?.type ?? null
      ].filter((extra) => extra !== null)
      return `${text.replace(/\s+/g, " ").slice(0, 100)}${extras.length > 0 ? `  [${extras.join(", ")}]` : ""}`
    }
    case "embeddings":
      return `${Array.isArray(body.input) ? body.input.length : 1} input(s)`
    case "images":
      return String(body.prompt ?? "").slice(0, 100)
    case "transcriptions":
      return request.files.map((file) => `${file.filename} (${file.size} bytes)`).join(", ")
    case "speech":
      return `${String(body.input ?? "").length} characters`
    case "videos":
      return String(request.fields.prompt ?? "").slice(0, 100)
    case "video":
    case "videoContent":
    case "models":
      return request.path === "/v1/models" ? "" : request.path
  }
}

const server = await startOpenAiServer({
  port: Number(values.port),
  delayMs: Number(values.delay),
  chunkDelayMs: Number(values["chunk-delay"]),
  demo: true,
  onRequest: (request) => {
    const time = new Date().toISOString().slice(11, 19)
    console.log(`${time} ${request.route.padEnd(14)} ${(request.model ?? "-").padEnd(24)} ${describe(request)}`)
  }
})

console.log(`A scripted OpenAI-compatible server at ${server.baseUrl}`)
console.log(`Run the node beside it: LLM_BASE_URL=${server.baseUrl} npm start`)
