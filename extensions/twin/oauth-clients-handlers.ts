/**
 * Handlers of the OAuth client routes: the caller is the session's being; the rules live in the OAuthClients service.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { OAuthClients, OAuthClientsLive } from "./oauth-clients.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { OAuthClientsApi } from "./contract/oauth-clients-api.ts"

export const OAuthClientsHandlers = HttpApiBuilder.group(apiOf(OAuthClientsApi), "oauthClients", (handlers) =>
  Effect.gen(function* () {
    const clients = yield* OAuthClients
    return handlers
      .handle("list", () => Effect.flatMap(CurrentSession, clients.list))
      .handle("set", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (caller) => clients.set(caller, path.provider, payload))
      )
      .handle("remove", ({ path }) => Effect.flatMap(CurrentSession, (caller) => clients.remove(caller, path.provider)))
  })
).pipe(Layer.provide(OAuthClientsLive))
