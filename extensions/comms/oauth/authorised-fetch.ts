/**
 * The `auth.fetch(url, init)` a plugin provider's sync and receive are handed for an oauth2
 * connection: the host adds `Authorization: Bearer <token>` and sends the request under the
 * node's address policy (kernel/http/outbound.ts), only to the token endpoint's host or a host the
 * manifest's `apiHosts` lists. A 401 renews the token once and tries again. The plugin gets the
 * status, headers and body text, never the token.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  refused,
  refusedUnlessChecked,
  refusedUnlessResolved,
  refusedWithMessage
} from "../../../kernel/extensions/capability-refused.ts"
import type { AuthFetchInit, AuthAdapter } from "../../../kernel/contract/auth-fetch.ts"
import type { OutboundHttpRequest, OutboundResponse } from "../../../kernel/extensions/network.ts"
import type { Stoppable } from "../../../kernel/http/outbound.ts"
import { PluginAuthFetch } from "../contract/plugin-auth-fetch.ts"
import { type OAuthPlan, PluginOAuth } from "./plugin-consent.ts"

const maxBytes = 4 * 1024 * 1024
const timeoutMs = 30_000

type Send = (request: Stoppable<OutboundHttpRequest>) => Promise<OutboundResponse>

const allowedHosts = (plan: OAuthPlan) =>
  new Set([new URL(plan.tokenUrl).host, ...plan.apiHosts].map((host) => host.toLowerCase()))

export const authorisedFetch = (
  oauth: PluginOAuth,
  send: Send,
  beingId: string,
  provider: string,
  plan: OAuthPlan
): AuthAdapter => {
  const hosts = allowedHosts(plan)
  const once = (url: URL, init: AuthFetchInit, token: string) =>
    refusedUnlessResolved((signal) =>
      send({
        url: url.toString(),
        method: (init.method ?? "GET").toUpperCase(),
        headers: { ...init.headers, authorization: `Bearer ${token}` },
        ...(init.body === undefined ? {} : { body: new TextEncoder().encode(init.body) }),
        maxBytes,
        timeoutMs,
        // A redirect would carry the token elsewhere: the plugin sees it and decides.
        maxRedirects: 0,
        signal
      })
    )
  return {
    fetch: (raw: unknown, given?: unknown) =>
      Effect.gen(function* () {
        const url = yield* refusedUnlessChecked(() => new URL(String(raw)))
        if (!hosts.has(url.host.toLowerCase()))
          return yield* refused(
            `${url.host} is not a host ${provider} declared for its API (apiHosts); the request was not sent.`
          )
        const init = (typeof given === "object" && given !== null ? given : {}) as AuthFetchInit
        const token = yield* refusedWithMessage(oauth.accessToken(beingId, provider))
        let answer = yield* once(url, init, token)
        if (answer.status === 401)
          answer = yield* once(url, init, yield* refusedWithMessage(oauth.refreshed(beingId, provider, token)))
        return { status: answer.status, headers: answer.headers, body: new TextDecoder().decode(answer.body) }
      })
  }
}

/** The contract's PluginAuthFetch over the consent flow: the provider's plan, then its authorised fetch. */
export const PluginAuthFetchLive = Layer.effect(
  PluginAuthFetch,
  Effect.map(PluginOAuth, (oauth) => ({
    forBeing: (beingId: string, provider: string) =>
      Effect.map(oauth.planOf(provider), (plan) => authorisedFetch(oauth, oauth.send, beingId, provider, plan))
  }))
).pipe(Layer.provide(PluginOAuth.Default))
