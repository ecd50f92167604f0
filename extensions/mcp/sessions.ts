/**
 * The MCP sessions this process holds (`Mcp-Session-Id`): each the SDK's transport and server for one client, in
 * memory, as the SDK keeps them. A session lives on the process that opened it; another process answers its id 404
 * and the client initializes again (the protocol's own recovery). At most MCP_SESSIONS_MAX at once (the oldest is
 * ended first); a revoked client's sessions end here and, told over the broadcast channel, on every other process.
 */
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import { Broadcast } from "../../kernel/broadcast.ts"

export interface McpSession {
  readonly clientId: string
  readonly transport: WebStandardStreamableHTTPServerTransport
}

export const MCP_SESSIONS_MAX = 1000

export class McpSessions extends Effect.Service<McpSessions>()("mcp/McpSessions", {
  scoped: Effect.gen(function* () {
    // Insertion order is age order: the first key is the oldest session.
    const sessions = new Map<string, McpSession>()

    const closeQuietly = (session: McpSession) => Effect.promise(() => session.transport.close().catch(() => undefined))

    const end = (id: string) =>
      Effect.suspend(() => {
        const session = sessions.get(id)
        sessions.delete(id)
        return session === undefined ? Effect.void : closeQuietly(session)
      })

    /** Called by the SDK's transport (Promise code) when `initialize` gives it its id: the oldest past the cap ends. */
    const add = (id: string, session: McpSession) => {
      sessions.set(id, session)
      const oldest = sessions.size > MCP_SESSIONS_MAX ? sessions.keys().next().value : undefined
      const ended = oldest === undefined ? undefined : sessions.get(oldest)
      if (oldest !== undefined) sessions.delete(oldest)
      return ended?.transport.close().catch(() => undefined)
    }

    /** The session of this id, if this process holds it and it is the client's; another client's is not found. */
    const find = (id: string, clientId: string) => {
      const session = sessions.get(id)
      return session !== undefined && session.clientId === clientId ? session : undefined
    }

    const endClient = (clientId: string) =>
      Effect.forEach(
        [...sessions].filter(([, session]) => session.clientId === clientId).map(([id]) => id),
        end,
        { discard: true }
      )

    const broadcast = yield* Broadcast
    const fromOthers = yield* broadcast.subscribe
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(Queue.take(fromOthers), (body) =>
          body.kind === "mcp.client.revoked" ? endClient(body.clientId) : Effect.void
        )
      )
    )
    yield* Effect.addFinalizer(() => Effect.forEach([...sessions.keys()], end, { discard: true }))

    return {
      add,
      find,
      /** Forgets a session the transport closed itself (a DELETE from its client). */
      forget: (id: string) => {
        sessions.delete(id)
      },
      endClient,
      count: () => sessions.size
    } as const
  })
}) {}
