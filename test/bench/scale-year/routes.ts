/**
 * The timed routes: each list and search route of the contract (contract.ts finds them) as the
 * owner calls it at its default page size (the typed client sends a query's defaults as written:
 * the values below are the contract's defaults), and how it is timed. A request is timed from the call
 * to the last byte of its answer, through the contract's typed client (`nodeClient`) over fetch;
 * the client's decoding of the answer after that is left out, so a figure is the node's and the
 * wire's. The session's cookie rides on every request; the address changes every 15 requests, as
 * the per-class rate limits count by address (the `owner` class allows 20 a minute).
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as Effect from "effect/Effect"
import { performance } from "node:perf_hooks"
import { fetchHttpClient, nodeClient, type NodeClient } from "../../../host/contract/client.ts"
import type { Client } from "../../support/client.ts"
import { PEER_MESSAGES_IN, PEER_MESSAGES_OUT, TASKS_PER_PROJECT, TRACES_PER_PROJECT, planned, query } from "./data.ts"
import type { SeededIds } from "./seed.ts"
import { firstPage } from "../../support/client.ts"

export const WARM_UP = 5
export const TIMED = 50
const PER_ADDRESS = 15

export interface TimedRoute {
  /** `group.endpoint`, as contract.ts names it; a second timing of one route adds a word after a space. */
  readonly key: string
  readonly label: string
  readonly call: (api: NodeClient) => Effect.Effect<unknown, unknown>
  /** The rows the route reads from, when the year put them there; else the answer's own count. */
  readonly behind?: number
  /** A cap the server keeps that the contract does not state. */
  readonly cap?: string
  /** The items of an answer, where `sizeOf` cannot see them. */
  readonly size?: (answer: never) => number
}

/** Items in an answer: an array's length, or the lengths of an object's arrays added up. */
export const sizeOf = (answer: unknown): number =>
  Array.isArray(answer)
    ? answer.length
    : typeof answer === "object" && answer !== null
      ? Object.values(answer).reduce<number>((sum, value) => sum + (Array.isArray(value) ? value.length : 0), 0)
      : 0

export const timedRoutes = (ids: SeededIds): ReadonlyArray<TimedRoute> => {
  const now = Date.now()
  const from = new Date(now - 7 * 86_400_000).toISOString()
  const to = new Date(now + 30 * 86_400_000).toISOString()
  // One signal in ten is still open (seed.ts).
  const openSignals = Math.ceil(planned.signals / 10)
  return [
    { key: "auth.listSessions", label: "GET /api/auth/sessions", call: (api) => api.auth.listSessions() },
    {
      key: "auth.listCodes",
      label: "GET /api/auth/codes",
      call: (api) => api.auth.listCodes({ urlParams: firstPage })
    },
    {
      key: "auth.listUnusedCodes",
      label: "GET /api/auth/codes/unused",
      call: (api) => api.auth.listUnusedCodes({ urlParams: firstPage })
    },
    {
      key: "auth.listInvites",
      label: "GET /api/auth/codes/sent",
      call: (api) => api.auth.listInvites({ urlParams: firstPage })
    },
    {
      key: "auth.listWaitlist",
      label: "GET /api/auth/waitlist",
      call: (api) => api.auth.listWaitlist({ urlParams: firstPage })
    },
    { key: "auth.listBeings", label: "GET /api/auth/beings", call: (api) => api.auth.listBeings() },
    { key: "plugins.listPlugins", label: "GET /api/plugins", call: (api) => api.plugins.listPlugins() },
    {
      key: "plugins.availablePlugins",
      label: "GET /api/plugins/available",
      call: (api) => api.plugins.availablePlugins()
    },
    { key: "studioSkills.listSkills", label: "GET /api/studio/skills", call: (api) => api.studioSkills.listSkills() },
    { key: "studioAgents.listAgents", label: "GET /api/studio/agents", call: (api) => api.studioAgents.listAgents() },
    {
      key: "studioGenerators.listGenerators",
      label: "GET /api/studio/generators",
      call: (api) => api.studioGenerators.listGenerators()
    },
    {
      key: "studioProjects.listProjects",
      label: "GET /api/studio/projects",
      call: (api) => api.studioProjects.listProjects({ urlParams: firstPage }),
      behind: planned.projects
    },
    {
      key: "studioProjects.getProject",
      label: "GET /api/studio/projects/:id",
      call: (api) => api.studioProjects.getProject({ path: { id: ids.projectId } }),
      behind: TASKS_PER_PROJECT
    },
    {
      key: "studioProjects.projectTrace",
      label: "GET /api/studio/projects/:id/trace",
      call: (api) => api.studioProjects.projectTrace({ path: { id: ids.projectId }, urlParams: {} }),
      behind: TRACES_PER_PROJECT
    },
    {
      key: "studioProjects.portfolio",
      label: "GET /api/studio/portfolio",
      call: (api) => api.studioProjects.portfolio({ urlParams: firstPage }),
      behind: planned.projects
    },
    {
      key: "studioProjects.queue",
      label: "GET /api/studio/queue",
      call: (api) => api.studioProjects.queue({ urlParams: firstPage })
    },
    {
      key: "desktop.listSignals",
      label: "GET /api/desktop/signals (open)",
      call: (api) => api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }),
      behind: openSignals
    },
    {
      key: "desktop.now",
      label: "GET /api/desktop/now (open count, top)",
      call: (api) => api.desktop.now({ urlParams: {} }),
      behind: openSignals,
      cap: "a summary: the count and the top few",
      size: (answer: { readonly openSignals: { readonly top: ReadonlyArray<unknown> } }) =>
        answer.openSignals.top.length
    },
    { key: "desktop.getWidgets", label: "GET /api/desktop/widgets", call: (api) => api.desktop.getWidgets() },
    { key: "llm.inference", label: "GET /api/llm/inference", call: (api) => api.llm.inference() },
    { key: "llm.usage", label: "GET /api/llm/usage", call: (api) => api.llm.usage(), cap: "recent: newest 20" },
    {
      key: "files.list",
      label: "GET /api/files?scope=user",
      call: (api) => api.files.list({ urlParams: { scope: "user" } })
    },
    {
      key: "files.search",
      label: "GET /api/files/search?q= (project roots)",
      call: (api) => api.files.search({ urlParams: { q: "notes" } }),
      // It walks the folder of each of the owner's projects (none was written here).
      behind: planned.projects,
      cap: "at most 100"
    },
    {
      key: "twinTime.listTodos",
      label: "GET /api/twin/todos",
      call: (api) => api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0 } })
    },
    {
      key: "twinTime.agenda",
      label: "GET /api/twin/calendar (37 days)",
      call: (api) => api.twinTime.agenda({ urlParams: { from, to } }),
      cap: "a range of at most 400 days"
    },
    { key: "twinHush.heldNudges", label: "GET /api/twin/hush/held", call: (api) => api.twinHush.heldNudges() },
    {
      key: "twin.searchMemories",
      label: "GET /api/twin/memories (newest)",
      call: (api) => api.twin.searchMemories({ urlParams: { offset: 0 } }),
      behind: planned.memories
    },
    {
      key: "twin.searchMemories q",
      label: "GET /api/twin/memories?q= (words)",
      call: (api) => api.twin.searchMemories({ urlParams: { q: query(7), offset: 0 } }),
      behind: planned.memories
    },
    {
      key: "twin.listActivity",
      label: "GET /api/twin/activity",
      call: (api) => api.twin.listActivity({ urlParams: { offset: 0 } })
    },
    { key: "twin.status", label: "GET /api/twin/status", call: (api) => api.twin.status() },
    {
      key: "market.ledger",
      label: "GET /api/market/wallet/ledger",
      call: (api) => api.market.ledger({ urlParams: { limit: 50, offset: 0 } })
    },
    {
      key: "market.orders",
      label: "GET /api/market/orders",
      call: (api) => api.market.orders({ urlParams: { limit: 50, offset: 0, as: "buyer" } })
    },
    {
      key: "market.searchListings",
      label: "GET /api/market/listings",
      call: (api) => api.market.searchListings({ urlParams: { mine: false, limit: 50, offset: 0 } }),
      behind: planned.listings
    },
    {
      key: "market.searchListings q",
      label: "GET /api/market/listings?q=",
      call: (api) => api.market.searchListings({ urlParams: { q: query(7), mine: false, limit: 50, offset: 0 } }),
      behind: planned.listings
    },
    {
      key: "market.listReviews",
      label: "GET /api/market/listings/:id/reviews",
      call: (api) => api.market.listReviews({ path: { id: ids.listingId } })
    },
    { key: "beings.listBeings", label: "GET /api/beings", call: (api) => api.beings.listBeings() },
    {
      key: "beings.square",
      label: "GET /api/beings/square",
      call: (api) => api.beings.square(),
      cap: "newest 100"
    },
    {
      key: "moderation.listPosts",
      label: "GET /api/moderation/posts",
      call: (api) => api.moderation.listPosts({ urlParams: firstPage }),
      cap: "newest 100"
    },
    {
      key: "moderation.listListings",
      label: "GET /api/moderation/listings",
      call: (api) => api.moderation.listListings({ urlParams: firstPage }),
      behind: planned.listings,
      cap: "newest 200"
    },
    {
      key: "connections.providers",
      label: "GET /api/connections/providers",
      call: (api) => api.connections.providers()
    },
    { key: "connections.list", label: "GET /api/connections", call: (api) => api.connections.list() },
    { key: "oauthClients.list", label: "GET /api/twin/oauth-clients", call: (api) => api.oauthClients.list() },
    {
      key: "threads.listThreads",
      label: "GET /api/threads",
      call: (api) => api.threads.listThreads({ urlParams: firstPage })
    },
    {
      key: "threads.listMessages",
      label: "GET /api/threads/:id/messages (Muse)",
      call: (api) => api.threads.listMessages({ path: { id: ids.museThreadId } }),
      behind: Math.ceil(planned.messages / 2),
      cap: "newest 500"
    },
    {
      key: "threads.listMessages direct",
      label: "GET /api/threads/:id/messages (direct)",
      call: (api) => api.threads.listMessages({ path: { id: ids.directThreadId } }),
      cap: "newest 500"
    },
    {
      key: "federation.listPeers",
      label: "GET /api/federation/peers",
      call: (api) => api.federation.listPeers({ urlParams: firstPage }),
      behind: planned.peers
    },
    {
      key: "federation.listConversations",
      label: "GET /api/federation/conversations",
      call: (api) => api.federation.listConversations({ urlParams: firstPage }),
      behind: planned.peers
    },
    {
      key: "federation.federatedThread",
      label: "GET /api/federation/threads/:id",
      call: (api) => api.federation.federatedThread({ path: { id: ids.conversationThreadId } }),
      behind: PEER_MESSAGES_IN + PEER_MESSAGES_OUT
    },
    {
      key: "federation.outbox",
      label: "GET /api/federation/outbox?kind=message",
      call: (api) => api.federation.outbox({ urlParams: { kind: "message", ...firstPage } }),
      behind: planned.peers * PEER_MESSAGES_OUT,
      cap: "newest 500"
    },
    {
      key: "federationSeeds.listSeeds",
      label: "GET /api/federation/seeds",
      call: (api) => api.federationSeeds.listSeeds()
    },
    { key: "themes.listThemes", label: "GET /api/themes", call: (api) => api.themes.listThemes() },
    { key: "groups.listGroups", label: "GET /api/groups", call: (api) => api.groups.listGroups() },
    {
      key: "groups.getGroup",
      label: "GET /api/groups/:id",
      call: (api) => api.groups.getGroup({ path: { id: ids.groupId } })
    },
    {
      key: "groups.treeMembers",
      label: "GET /api/groups/:id/tree-members",
      call: (api) => api.groups.treeMembers({ path: { id: ids.groupId } })
    },
    {
      key: "search.search",
      label: "GET /api/search?q=",
      call: (api) => api.search.search({ urlParams: { q: query(7) } }),
      behind: planned.projects + planned.memories + planned.listings
    }
  ]
}

/** Routes of contract.ts's list this bench does not time, and why. */
export const untimed: Readonly<Record<string, string>> = {
  "studioGenerators.getGenerator": "one generator's steps: a record's parts, not a list",
  "twinHush.nudgeWhy": "one nudge's evidence; the year holds no nudge to ask about"
}

export interface RouteTiming {
  readonly route: TimedRoute
  /** Milliseconds to the answer's last byte, sorted. */
  readonly ms: ReadonlyArray<number>
  /** The anchor's, each call right after one of the route's, sorted. */
  readonly anchorMs: ReadonlyArray<number>
  readonly answered: number
  /** The bytes of the route's answer (its body, as sent). */
  readonly bytes: number
}

// Across routes, so no address carries more than PER_ADDRESS calls in a minute.
let address = 0
let calls = 0

/**
 * Times one route: WARM_UP calls, then TIMED calls one after another, each followed by one call
 * of the anchor, `GET /api/auth/me` (the same session check, a constant answer): what the machine
 * and the wire cost at that moment, so a slow call of a small route can be told from a busy machine.
 */
export const timeRoute = async (base: string, owner: Client, route: TimedRoute): Promise<RouteTiming> => {
  let lastByte = 0
  let lastBytes = 0
  const http = fetchHttpClient.pipe(
    HttpClient.mapRequest((request) => {
      if (calls++ % PER_ADDRESS === 0) address += 1
      return HttpClientRequest.setHeaders(request, {
        cookie: owner.cookieHeader(),
        "x-forwarded-for": `10.200.${(address >> 8) & 255}.${address & 255}`
      })
    }),
    HttpClient.transformResponse((response) =>
      Effect.flatMap(response, (answer) =>
        Effect.map(answer.arrayBuffer, (body) => {
          lastByte = performance.now()
          lastBytes = body.byteLength
          return HttpClientResponse.fromWeb(
            answer.request,
            new Response(body, { status: answer.status, headers: answer.headers })
          )
        })
      )
    )
  )
  const api = nodeClient(http, base)
  const timed = async <A>(call: Effect.Effect<A, unknown>) => {
    const started = performance.now()
    const answer = await Effect.runPromise(call)
    return { answer, ms: lastByte - started, bytes: lastBytes }
  }
  const ms: Array<number> = []
  const anchorMs: Array<number> = []
  let answered = 0
  let bytes = 0
  for (let n = 0; n < WARM_UP + TIMED; n++) {
    const { answer, ms: took, bytes: size } = await timed(route.call(api))
    bytes = size
    const anchor = await timed(api.auth.me())
    if (n >= WARM_UP) {
      ms.push(took)
      anchorMs.push(anchor.ms)
    } else answered = route.size === undefined ? sizeOf(answer) : route.size(answer as never)
  }
  const sorted = (values: Array<number>) => values.sort((a, b) => a - b)
  return { route, ms: sorted(ms), anchorMs: sorted(anchorMs), answered, bytes }
}
