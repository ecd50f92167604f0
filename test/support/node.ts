/**
 * A real node for API tests: the whole host on an ephemeral loopback port, over a fresh
 * SQLite file in a temp folder. Callers talk to it over real HTTP.
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { afterAll, beforeAll } from "vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { NodeSettings } from "../../host/node.ts"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"

export interface TestNode {
  readonly url: string
  readonly ownerCode: string
  readonly dataDir: string
  /** Runs an Effect against the node's own services (its database, its settings). */
  readonly runtime: ManagedRuntime.ManagedRuntime<any, unknown>
  readonly close: () => Promise<void>
}

/** Settings may depend on the node's fresh data folder (a plugin folder inside it, say). */
export const startNode = async (
  overrides: Partial<NodeSettings> | ((dataDir: string) => Partial<NodeSettings>) = {},
  options: { readonly uiDir?: string } = {}
): Promise<TestNode> => {
  const dataDir = mkdtempSync(join(tmpdir(), "node-test-"))
  const settings = typeof overrides === "function" ? overrides(dataDir) : overrides
  const layer = bootInfoLayer.pipe(
    Layer.provideMerge(
      nodeLayer({ ...options, settings: { dataDir, port: 0, host: "127.0.0.1", trustProxy: 1, ...settings } })
    )
  )
  const runtime = ManagedRuntime.make(layer)
  const info = await runtime.runPromise(BootInfo)
  return {
    url: info.url,
    ownerCode: Option.getOrElse(info.ownerCode, () => ""),
    dataDir,
    runtime: runtime as ManagedRuntime.ManagedRuntime<any, unknown>,
    close: async () => {
      await runtime.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

export interface Answer<T = any> {
  readonly status: number
  readonly headers: Headers
  readonly body: T
  readonly text: string
}

let addressCounter = 0

/** One person's browser-like client: it keeps the cookies the node sets. */
export class Client {
  cookies = new Map<string, string>()
  readonly base: string
  readonly headers: Record<string, string>

  /** Each client comes from its own address (test nodes trust one proxy's X-Forwarded-For) unless told otherwise. */
  constructor(base: string, headers: Record<string, string> = {}) {
    addressCounter += 1
    this.base = base
    this.headers = { "x-forwarded-for": `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`, ...headers }
  }

  async request<T = any>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}) {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
    if (body !== undefined) headers["content-type"] = "application/json"
    const response = await fetch(this.base + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) || value === ""
      if (expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = JSON.parse(text)
    } catch {}
    return { status: response.status, headers: response.headers, body: parsed as T, text } satisfies Answer<T>
  }

  get = <T = any>(path: string) => this.request<T>("GET", path)
  post = <T = any>(path: string, body?: unknown) => this.request<T>("POST", path, body ?? {})
  del = <T = any>(path: string) => this.request<T>("DELETE", path)
}

let handleCounter = 0

/** A fresh person's registration body. */
export const person = (accessCode: string, overrides: Record<string, string> = {}) => {
  handleCounter += 1
  const handle = `person_${process.pid}_${handleCounter}`
  return {
    email: `${handle}@example.org`,
    password: "correct horse battery",
    handle,
    displayName: `Person ${handleCounter}`,
    accessCode,
    ...overrides
  }
}

/** Registers the owner with the node's bootstrap code; answers their client. */
export const registerOwner = async (node: TestNode, headers: Record<string, string> = {}) => {
  const owner = new Client(node.url, headers)
  const registration = person(node.ownerCode)
  const answer = await owner.post("/api/auth/register", registration)
  if (answer.status !== 200) throw new Error(`owner registration failed: ${answer.text}`)
  return { client: owner, registration, being: answer.body.being }
}

/** Mints one code as the owner and registers a new member with it. */
export const registerMember = async (node: TestNode, owner: Client, headers: Record<string, string> = {}) => {
  const minted = await owner.post("/api/auth/codes", { count: 1, note: "member" })
  const member = new Client(node.url, headers)
  const registration = person(minted.body[0].code)
  const answer = await member.post("/api/auth/register", registration)
  if (answer.status !== 200) throw new Error(`member registration failed: ${answer.text}`)
  return { client: member, registration, being: answer.body.being }
}



export type Registered = Awaited<ReturnType<typeof registerOwner>>

/**
 * A node with its owner registered, for the whole test file: started before the first test,
 * closed after the last. Read `node` and `owner` inside tests (they are set by then).
 */
export const nodeWithOwner = (overrides?: Parameters<typeof startNode>[0]) => {
  const context = {} as { node: TestNode; owner: Registered }
  beforeAll(async () => {
    context.node = await startNode(overrides)
    context.owner = await registerOwner(context.node)
  })
  afterAll(() => context.node.close())
  return context
}
