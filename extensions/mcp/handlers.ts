/**
 * The MCP feature's routes: the person's clients (mint, list, revoke; the caller from the session) and the protocol's
 * transport at /api/mcp (endpoint.ts; the caller from the bearer token), over one McpClients, so a revocation ends the
 * very sessions the transport holds.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { McpCalls } from "./calls.ts"
import { McpClients } from "./clients.ts"
import { McpApi, McpClientsApi } from "./contract/api.ts"
import { makeMcpEndpoint } from "./endpoint.ts"
import { McpSessions } from "./sessions.ts"

const McpClientsHandlers = HttpApiBuilder.group(apiOf(McpClientsApi), "mcpClients", (handlers) =>
  Effect.gen(function* () {
    const clients = yield* McpClients
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("mint", ({ payload }) => Effect.flatMap(caller, (beingId) => clients.mint(beingId, payload)))
      .handle("list", () => Effect.flatMap(caller, clients.list))
      .handle("revoke", ({ path }) => Effect.flatMap(caller, (beingId) => clients.revoke(beingId, path.id)))
  })
)

const McpHandlers = HttpApiBuilder.group(apiOf(McpApi), "mcp", (handlers) =>
  Effect.gen(function* () {
    const serve = yield* makeMcpEndpoint
    return handlers
      .handleRaw("message", () => serve)
      .handleRaw("stream", () => serve)
      .handleRaw("end", () => serve)
  })
)

/** Both groups over one McpClients (and so one set of sessions). */
export const mcpRoutes = Layer.mergeAll(McpClientsHandlers, McpHandlers).pipe(
  Layer.provide(Layer.mergeAll(McpClients.Default.pipe(Layer.provideMerge(McpSessions.Default)), McpCalls.Default))
)
