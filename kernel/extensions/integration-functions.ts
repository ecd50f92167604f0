/**
 * What a plugin's `integration` (a connection provider) may hand the host besides its descriptor
 * fields: `sync`, called by the twin's sync route for `<namespace>.<id>` and by the provider's cadence,
 * and `receive`, called with a webhook delivery the host has verified. Both answer a
 * ProviderSyncResult, which the host validates whoever wrote the plugin. They are handed the
 * connection's non-secret `meta` only: its secret (a token, the webhook's shared secret) stays
 * with the host, sealed at rest, and is never passed to plugin code.
 */
import type { GrantedAdapters } from "./adapters.ts"
import type { AuthAdapter } from "../contract/auth-fetch.ts"

export type { AuthAdapter, AuthFetchAnswer, AuthFetchInit } from "../contract/auth-fetch.ts"

export const integrationFunctionNames = ["sync", "receive"] as const
export type IntegrationFunctionName = (typeof integrationFunctionNames)[number]

/** `sync`'s request: the being's connection as plugin code may see it. */
export interface ProviderSyncRequest {
  readonly connectionId: string
  /** What the last pass answered as its cursor; null on the first. */
  readonly cursor: string | null
  readonly meta: { readonly [key: string]: unknown }
}

/** `receive`'s request: one verified webhook delivery to the being's connection. */
export interface ProviderReceiveRequest {
  readonly connectionId: string
  readonly meta: { readonly [key: string]: unknown }
  readonly contentType: string
  /** The delivery's body as text (UTF-8), exactly as signed. */
  readonly body: string
}

/**
 * Handed with each call: the being it is for, and the plugin's granted adapters narrowed to the extension's `uses`,
 * built for that being.
 */
export interface IntegrationCallContext {
  readonly beingId: string
  readonly adapters: GrantedAdapters
  /** For an oauth2 provider's connection only (also at `adapters.auth`, which is how it crosses into an isolate). */
  readonly auth?: AuthAdapter
}

export type IntegrationFunction = (
  request: ProviderSyncRequest | ProviderReceiveRequest,
  context: IntegrationCallContext
) => unknown

/** The longest one sync or receive may run before the host gives up on it (and, in an isolate, stops the plugin). */
export const integrationTimeoutMs = 60_000

/** The function a contribution's value holds under `name`, if any. */
export const integrationFunction = (value: unknown, name: IntegrationFunctionName): IntegrationFunction | undefined => {
  const field =
    typeof value === "object" && value !== null ? (value as { readonly [key: string]: unknown })[name] : undefined
  return typeof field === "function" ? (field as IntegrationFunction) : undefined
}
