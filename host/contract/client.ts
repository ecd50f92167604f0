/**
 * The contract's typed client (`client.twin.listMemories(…)`), for the web app (ui/api/client.ts) and the tests'
 * people (test/support/client.ts). Each group is made the first time a call reaches it and kept for the client's
 * life: making the whole client at once walks every endpoint of every group and compiles its schemas, 80–580 ms of
 * CPU (more on a phone), where one group takes 10–20 ms and a page or a test asks two or three.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiClient from "@effect/platform/HttpApiClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as Effect from "effect/Effect"
import { NodeApi } from "./api.ts"

/** What `HttpApiClient.make(NodeApi)` would answer: every group's calls. */
export type NodeClient =
  typeof NodeApi extends HttpApi.HttpApi<string, infer Groups, infer ApiError, infer _R>
    ? HttpApiClient.Client<Groups, ApiError, never>
    : never

/** The platform's `fetch` as an HttpClient: what the web app and the tests' people reach the node through. */
export const fetchHttpClient: HttpClient.HttpClient = Effect.runSync(
  Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer)
)

/** The client of `NodeApi` over `httpClient`, its requests' paths prefixed by `baseUrl`. */
export const nodeClient = (httpClient: HttpClient.HttpClient, baseUrl: string): NodeClient =>
  new Proxy({} as Record<string, unknown>, {
    get: (made, group) => {
      if (typeof group !== "string") return undefined
      made[group] ??= Effect.runSync(HttpApiClient.group(NodeApi, { group: group as never, httpClient, baseUrl }))
      return made[group]
    }
  }) as unknown as NodeClient
