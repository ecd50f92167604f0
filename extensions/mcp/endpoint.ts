/**
 * `/api/mcp`: MCP's Streamable HTTP transport, the SDK's web-standard one, behind the node's rules. The request policy
 * has bounded the body, checked its type, counted the `mcp` rate class and refused a state-changing request from
 * another site before this runs; here, for every method, an `Origin` that is present and not the node's own is
 * refused 403 (DNS rebinding, as the specification asks; desktop assistants send none), then the bearer token names
 * the client (a cookie is never read here). A request naming a session this process does not hold for this client is
 * the protocol's 404, and the client initializes again. Answers are JSON (`enableJsonResponse`): every tool answers in
 * one reply, and the server sends nothing unasked, so a stream per POST would only add framing.
 */
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomUUID } from "node:crypto"
import { refusalResponse } from "../../kernel/http/refusal-response.ts"
import { Settings } from "../../kernel/settings.ts"
import { McpCalls } from "./calls.ts"
import { McpClients, type McpIdentity } from "./clients.ts"
import { makeServer, type ServerServices } from "./server.ts"
import { McpSessions } from "./sessions.ts"
import { mcpHttpServer } from "./sdk.ts"

const SESSION_HEADER = "mcp-session-id"

const unauthorized = HttpServerResponse.setHeader(
  refusalResponse(401, {
    error: "unauthorized",
    message: "Send an MCP client's token as `Authorization: Bearer <token>` (mint one in Settings → Assistants)."
  }),
  "www-authenticate",
  'Bearer realm="mcp"'
)

const foreignOrigin = refusalResponse(403, {
  error: "forbidden_origin",
  message: "A page from another site cannot speak to this node's MCP server."
})

const sessionNotFound = HttpServerResponse.unsafeJson(
  { jsonrpc: "2.0", error: { code: -32001, message: "Session not found: initialize again." }, id: null },
  { status: 404 }
)

/** True when an `Origin` is sent and is not the node's (PUBLIC_URL, else the host the request was sent to). */
const fromElsewhere = (headers: HttpServerRequest.HttpServerRequest["headers"], publicUrl: Option.Option<string>) => {
  if (headers["sec-fetch-site"]?.toLowerCase() === "cross-site") return true
  const origin = headers.origin
  if (origin === undefined) return false
  const own = Option.getOrElse(publicUrl, () => `http://${headers.host ?? ""}`)
  return !URL.canParse(origin) || !URL.canParse(own) || new URL(origin).origin !== new URL(own).origin
}

/** The request as the SDK reads it: method, URL and headers; the body was read by the request policy. */
const webRequest = (request: HttpServerRequest.HttpServerRequest) =>
  new Request(`http://node${request.url}`, {
    method: request.method,
    headers: Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined)
  })

const streamOpened = new TextEncoder().encode(": stream open\n\n")

/**
 * A server stream starts with a comment: the server writes its status and headers with the first bytes, and the SDK's
 * stream has none until it sends something (its keep-alive comes after 15 s).
 */
const openedAtOnce = (response: Response) => {
  if (response.body === null || !response.headers.get("content-type")?.startsWith("text/event-stream")) return response
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>({
    start: (controller) => controller.enqueue(streamOpened)
  })
  response.body.pipeTo(writable).catch(() => undefined)
  return new Response(readable, { status: response.status, headers: response.headers })
}

export const makeMcpEndpoint = Effect.gen(function* () {
  const clients = yield* McpClients
  const sessions = yield* McpSessions
  const { publicUrl } = yield* Settings
  const calls = yield* McpCalls
  const services = yield* Effect.context<ServerServices>()

  /** A new transport, its server connected, entered in the sessions when `initialize` gives it an id. */
  const open = (identity: McpIdentity) =>
    Effect.promise(async () => {
      const transport: WebStandardStreamableHTTPServerTransport =
        new (mcpHttpServer().WebStandardStreamableHTTPServerTransport)({
          sessionIdGenerator: randomUUID,
          enableJsonResponse: true,
          onsessioninitialized: (id) => sessions.add(id, { clientId: identity.client.id, transport }),
          onsessionclosed: sessions.forget
        })
      await makeServer(identity, calls, services).connect(transport)
      return transport
    })

  return Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (fromElsewhere(request.headers, publicUrl)) return foreignOrigin
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1]
    if (token === undefined) return unauthorized
    const identity = yield* clients.authenticate(token)
    if (Option.isNone(identity)) return unauthorized

    const sessionId = request.headers[SESSION_HEADER]
    const held = sessionId === undefined ? undefined : sessions.find(sessionId, identity.value.client.id)
    if (sessionId !== undefined && held === undefined) return sessionNotFound
    const transport = held?.transport ?? (yield* open(identity.value))

    const hasBody = request.method === "POST"
    const parsedBody = hasBody ? yield* Effect.orElseSucceed(request.json, () => undefined) : undefined
    const response = yield* Effect.promise(() => transport.handleRequest(webRequest(request), { parsedBody }))
    // A transport that opened no session (no `initialize` came) serves nothing more.
    if (held === undefined && transport.sessionId === undefined) {
      yield* Effect.promise(() => transport.close())
    }
    return HttpServerResponse.fromWeb(openedAtOnce(response))
  })
})
