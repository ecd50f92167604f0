/**
 * Every read route answers alike on PostgreSQL and SQLite (issue 16): two nodes, one per dialect,
 * seeded through the API the same way with a little of everything a user makes, then every GET
 * endpoint of the contract (walked from `NodeApi`, so a new route is swept too) called as the
 * owner on both. No route may answer 5xx on either, and each must answer the same status on both;
 * the routes that take a search word are called once more with one (their full-text paths).
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { NodeApi } from "../../host/contract/api.ts"
import { newKeyPair } from "../support/federation.ts"
import { remoteDefault } from "../support/models.ts"
import {
  Client,
  nodeWithOwner,
  registerMember,
  firstPage,
  run,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"
import * as Schema from "effect/Schema"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { AgentInput } from "../../extensions/agents/contract/agent.ts"
import { sellGenerator } from "./market-support.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"

let models: OpenAiServer
beforeAll(async () => {
  models = await startOpenAiServer()
})
afterAll(async () => {
  await models.close()
})
/** One ENCRYPTION_KEY on both: a cluster needs the setting to seal (push keys), a node of one process keeps its own. */
const sealing = { encryptionKey: Option.some(Redacted.make("a long passphrase for the sweep")) }
const onSqlite = nodeWithOwner(() => ({ ...remoteDefault(models.baseUrl), ...sealing }))
const onPostgres = nodeOnPostgresWithOwner(() => ({ ...remoteDefault(models.baseUrl), ...sealing }))

interface Route {
  readonly group: string
  readonly name: string
  readonly path: string
}

/** Every GET route of the contract, read from the one declaration. */
const getRoutes: Route[] = []
HttpApi.reflect(NodeApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint }) => {
    if (endpoint.method === "GET") getRoutes.push({ group: group.identifier, name: endpoint.name, path: endpoint.path })
  }
})

/** Routes not swept, each with its reason (none so far: every read route answers and ends). */
const skipped: Record<string, string> = {}

/** Routes whose answer differs on PostgreSQL by design, each with its reason; still never a 5xx. */
const differsOnPostgres: Record<string, string> = {
  "/api/backups": "409 use_pg_dump: a cluster's database is backed up with pg_dump (docs/operations.md)",
  "/api/backups/schedule": "409 use_pg_dump, as the backups themselves"
}

/** Query parameters a route requires (the sweep calls it as a page would). */
const requiredQuery: Record<string, string> = {
  "files.list": "scope=user",
  "files.search": "q=tea",
  "files.read": "id=made-up-file",
  "twinTime.agenda": "from=2031-01-01T00:00:00Z&to=2031-12-31T00:00:00Z",
  "search.search": "q=tea"
}

/**
 * The list/search routes swept once more with each of these queries: a search word where they take
 * one (their full-text paths), and the filters that choose another WHERE or ORDER BY.
 */
/** Search words a full-text engine reads as syntax (a quote, an operator, a prefix star, a colon). */
const awkward = ['"tea', "tea OR", "tea*", "(tea", "green:tea", "-tea", "tea & green", "!", "NEAR(tea)"].map(
  (word) => `q=${encodeURIComponent(word)}`
)

const variants: Record<string, ReadonlyArray<string>> = {
  "twin.searchMemories": ["q=tea", "q=tea&kind=fact&limit=5", "kind=fact", ...awkward],
  "twin.listActivity": ["kind=learned&limit=5"],
  "market.searchListings": ["q=tea", "q=tea&kind=generator", "mine=true", ...awkward],
  "market.orders": ["as=seller", "limit=1&offset=1"],
  "market.ledger": ["limit=1&offset=1"],
  "files.search": ["q=green", ...awkward],
  "search.search": ["q=green", "q=tea", ...awkward],
  "threads.listThreads": ["kind=muse", "kind=direct", "kind=agent", "limit=1&offset=1", "kind=direct&limit=1"],
  "federation.listPeers": ["limit=1&offset=0", "offset=1"],
  "federation.listConversations": ["limit=1&offset=0", "offset=1"],
  "federation.outbox": ["kind=message", "kind=post", "kind=retraction"],
  "twinTime.listTodos": ["status=open,done", "status=done&limit=1"],
  "desktop.listSignals": ["status=answered", "status=dismissed"],
  "studioProjects.projectTrace": ["after=1&limit=5"]
}

const MADE_UP = "made-up-id"

/** What the seeding made, by `<group>.<path parameter>`; a parameter absent here gets a made-up id. */
type Seeded = Record<string, string>

/** A little of everything a user makes, through the API, the same on both nodes. */
const seed = async (node: TestNode, owner: Registered): Promise<{ seeded: Seeded; member: Registered }> => {
  const api = owner.client.api
  const member = await registerMember(node, owner.client)
  await run(api.twin.createMemory({ payload: { content: "Green tea is best at eighty degrees", kind: "fact" } }))
  const todo = await run(api.twinTime.createTodo({ payload: { title: "Buy green tea" } }))
  const event = await run(
    api.twinTime.createEvent({ payload: { title: "Tea tasting", startAt: "2031-02-03T09:00:00Z" } })
  )
  const form = new FormData()
  form.append("file", new Blob(["Notes on green tea: steep it at eighty degrees."]), "green-tea.md")
  const uploaded = await fetch(`${owner.client.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { ...owner.client.headers, cookie: owner.client.cookieHeader() }
  })
  expect(uploaded.status).toBe(200)
  await run(api.beings.post({ payload: { content: "Green tea on the square" } }))
  await run(
    new Client(node.url).api.authPublic.joinWaitlist({
      payload: { email: "tea@example.org", name: "Tea", why: "Tea club" }
    })
  )
  const group = await run(api.groups.createGroup({ payload: { name: "Tea club", kind: "crew" } }))
  await run(api.groups.addMember({ path: { id: group.id }, payload: { beingId: member.being.id, role: "taster" } }))
  const [muse] = await run(api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  await run(api.threads.postMessage({ path: { id: muse!.id }, payload: { content: "Tell me about green tea" } }))
  await vi.waitFor(
    async () => {
      const messages = await run(api.threads.listMessages({ path: { id: muse!.id } }))
      expect(messages.some((message) => message.role === "assistant")).toBe(true)
    },
    { timeout: 30_000, interval: 100 }
  )
  const { generator, listing } = await sellGenerator(owner.client, "Green tea generator", 1)
  await run(member.client.api.market.buyListing({ path: { id: listing.id } }))
  await run(
    member.client.api.market.postReview({ path: { id: listing.id }, payload: { rating: 5, body: "Steeped well" } })
  )
  const direct = await run(api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } }))
  await run(api.threads.postMessage({ path: { id: direct.id }, payload: { content: "Tea at four?" } }))
  // A peer at no address that answers, and a conversation there with a message waiting in the outbox.
  const peerDid = newKeyPair().did as never
  await run(api.federation.addPeer({ payload: { nodeDid: peerDid, endpoint: "http://127.0.0.1:1", name: "Tea node" } }))
  const talk = await run(
    api.federation.openConversation({
      payload: { peerDid, remoteDid: newKeyPair().did as never, petname: "Tea friend" }
    })
  )
  await run(api.threads.postMessage({ path: { id: talk.threadId }, payload: { content: "Tea from afar?" } }))
  const agent = await run(
    api.studioAgents.createAgent({
      payload: Schema.decodeUnknownSync(AgentInput)({ name: "Tea taster", role: "taster", skills: [] })
    })
  )
  // A studio project run to done by the scripted team: its tasks, team, review, outputs and costs.
  scriptStudio(models)
  const studio = await twoStepGenerator(owner.client)
  const started = await startGenerator(owner.client, studio.id, { topic: "green tea" })
  expect((await untilSettled(owner.client, started.id, undefined, 60_000)).project.status).toBe("done")
  const seeded = {
    "studioGenerators.getGenerator.id": generator.id,
    "twinTime.id": todo.id,
    "twinTime.getEvent.id": event.id,
    "market.id": listing.id,
    "souls.beingId": member.being.id,
    "beings.id": member.being.id,
    "threads.id": muse!.id,
    "federation.id": talk.threadId,
    "groups.id": group.id,
    "groups.projectId": started.id,
    "studioAgents.id": agent.id,
    "studioProjects.id": started.id
  }
  return { seeded, member }
}

/** A route's own entry (`<group>.<endpoint>.<parameter>`) first: the event route's id is an event's, not a to-do's. */
const pathFor = (route: Route, seeded: Seeded) =>
  route.path.replace(
    /:(\w+)/g,
    (_, parameter: string) =>
      seeded[`${route.group}.${route.name}.${parameter}`] ?? seeded[`${route.group}.${parameter}`] ?? MADE_UP
  )

/** What an answer shows at a glance: its status, and how many items its lists hold (a search's groups, say). */
const glance = ({ status, body }: { status: number; body: unknown }) => {
  if (Array.isArray(body)) return `${status} (${body.length} items)`
  const lists =
    body !== null && typeof body === "object"
      ? Object.entries(body)
          .filter(([, value]) => Array.isArray(value))
          .map(([name, value]) => `${name} ${(value as Array<unknown>).length}`)
      : []
  return lists.length === 0 ? String(status) : `${status} (${lists.join(", ")})`
}

/** Every GET route as `who` (the owner, then a member: their reads filter other rows). */
const sweep = async (as: string, who: Registered, seeded: Seeded, statuses: Map<string, string>) => {
  for (const route of getRoutes) {
    const key = `${route.group}.${route.name}`
    if (skipped[key] !== undefined) continue
    const path = pathFor(route, seeded)
    const query = requiredQuery[key]
    const answer = await who.client.raw("GET", query === undefined ? path : `${path}?${query}`)
    statuses.set(`${as} GET ${route.path}`, glance(answer))
    for (const variant of variants[key] ?? []) {
      const varied = await who.client.raw("GET", `${path}?${variant}`)
      statuses.set(`${as} GET ${route.path}?${variant}`, glance(varied))
    }
  }
}

describe("every read route on PostgreSQL and SQLite", () => {
  it("answers without a server error, and the same status on both", async () => {
    const sqlite = new Map<string, string>()
    const postgres = new Map<string, string>()
    for (const [context, statuses] of [
      [onSqlite, sqlite],
      [onPostgres, postgres]
    ] as const) {
      const { seeded, member } = await seed(context.node, context.owner)
      await sweep("owner", context.owner, seeded, statuses)
      await sweep("member", member, seeded, statuses)
    }
    const rows = [...sqlite.keys()].map((route) => ({
      route,
      sqlite: sqlite.get(route)!,
      postgres: postgres.get(route)!
    }))
    const byDesign = (route: string) => differsOnPostgres[route.split(" GET ")[1]!.split("?")[0]!] !== undefined
    const wrong = rows.filter(
      (row) =>
        row.sqlite.startsWith("5") ||
        row.postgres.startsWith("5") ||
        (row.sqlite !== row.postgres && !byDesign(row.route))
    )
    if (wrong.length > 0) console.table(wrong)
    expect(wrong).toEqual([])
    expect(rows.length).toBeGreaterThan(150)
  }, 120_000)
})
