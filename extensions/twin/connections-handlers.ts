/** Handlers of the Connections routes: the caller is the session's being; the rules live in the Connections service. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { Connections } from "./connections.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { ConnectionsApi } from "./contract/connections-api.ts"

export const ConnectionsHandlers = HttpApiBuilder.group(apiOf(ConnectionsApi), "connections", (handlers) =>
  Effect.gen(function* () {
    const connections = yield* Connections
    return handlers
      .handle("providers", () => connections.providers)
      .handle("list", () => Effect.flatMap(CurrentSession, connections.list))
      .handle("chatPairing", () => Effect.flatMap(CurrentSession, connections.chatPairing))
      .handle("create", ({ payload }) =>
        Effect.flatMap(CurrentSession, (caller) => connections.create(caller, payload))
      )
      .handle("get", ({ path }) => Effect.flatMap(CurrentSession, (caller) => connections.get(caller, path.id)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (caller) => connections.update(caller, path.id, payload))
      )
      .handle("remove", ({ path }) =>
        Effect.flatMap(CurrentSession, (caller) => connections.remove(caller, path.id)).pipe(
          Effect.as({ ok: true } as const)
        )
      )
  })
)
