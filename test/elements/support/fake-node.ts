/**
 * The node, as far as an element under test asks it anything: `fakeNode(routes)` puts a `fetch`
 * in the page that answers "METHOD /api/path" from the routes (JSON bodies, a status, or an
 * answer held until the test lets it go) and keeps every request, so a test can see what an
 * element sent. A request no route names answers 404, and `unrouted` lists it. The real `fetch`
 * is put back after each test.
 */
import { waitUntil } from "@open-wc/testing"

export interface Sent {
  readonly method: string
  /** The path with its query: "/api/twin/memories?q=tea". */
  readonly url: string
  readonly path: string
  readonly search: URLSearchParams
  readonly body: unknown
}

export type Answer =
  | {
      readonly status?: number
      readonly json?: unknown
      readonly text?: string
      readonly headers?: Record<string, string>
    }
  | Response

export type Route = Answer | ((sent: Sent) => Answer | Promise<Answer>)

export interface FakeNode {
  readonly sent: Array<Sent>
  /** Requests no route answered. */
  readonly unrouted: Array<string>
  /** The requests made to one route ("POST /api/x"). */
  readonly to: (route: string) => Array<Sent>
  /** Waits for the n-th request to a route (the first by default); at once when it was already made. */
  readonly request: (route: string, n?: number) => Promise<Sent>
  readonly routes: Record<string, Route>
}

const realFetch = globalThis.fetch.bind(globalThis)

/** A refusal in the node's words: `{ error, message }` with its status. */
export const refusal = (status: number, error: string, message: string): Answer => ({
  status,
  json: { error, message }
})

/** An answer the test lets go when it wants: `hold.answer` is the route; `hold.release(answer)` sends it. */
export const held = () => {
  let release: (answer: Answer) => void = () => undefined
  const promise = new Promise<Answer>((resolve) => {
    release = resolve
  })
  return { answer: () => promise, release: (answer: Answer) => release(answer) }
}

/**
 * A list route the node answers a page at a time (kernel/contract/page.ts): the items its `limit` and `offset`
 * name, 50 from the first by default. `items` may be a function, for a list that changes during the test.
 */
export const paged =
  (items: ReadonlyArray<unknown> | (() => ReadonlyArray<unknown>)) =>
  (sent: Sent): Answer => {
    const all = typeof items === "function" ? items() : items
    const offset = Number(sent.search.get("offset") ?? 0)
    return { json: all.slice(offset, offset + Number(sent.search.get("limit") ?? 50)) }
  }

const toResponse = (answer: Answer): Response => {
  if (answer instanceof Response) return answer
  const status = answer.status ?? 200
  if (status === 204) return new Response(null, { status })
  if (answer.text !== undefined)
    return new Response(answer.text, { status, headers: { "content-type": "text/plain", ...answer.headers } })
  return new Response(JSON.stringify(answer.json ?? null), {
    status,
    headers: { "content-type": "application/json", ...answer.headers }
  })
}

const readBody = async (request: Request): Promise<unknown> => {
  if ((request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return request.formData()
  const text = await request.text()
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

export const fakeNode = (routes: Record<string, Route>): FakeNode => {
  const sent: Array<Sent> = []
  const unrouted: Array<string> = []
  const waiters: Array<{ route: string; count: number; resolve: (sent: Sent) => void }> = []
  const key = (s: Sent) => `${s.method} ${s.path}`
  const node: FakeNode = {
    sent,
    unrouted,
    routes,
    to: (route) => sent.filter((s) => key(s) === route),
    request: (route, n) => {
      const already = node.to(route)
      const wanted = n ?? 1
      if (already.length >= wanted) return Promise.resolve(already[wanted - 1]!)
      return new Promise((resolve) => waiters.push({ route, count: wanted, resolve }))
    }
  }
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input instanceof URL ? input.href : input, init)
    const url = new URL(request.url, location.href)
    if (url.origin !== location.origin || !url.pathname.startsWith("/api/")) return realFetch(input, init)
    const one: Sent = {
      method: request.method,
      url: url.pathname + url.search,
      path: url.pathname,
      search: url.searchParams,
      body: await readBody(request)
    }
    sent.push(one)
    for (const waiter of [...waiters]) {
      if (waiter.route === key(one) && node.to(waiter.route).length >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(one)
      }
    }
    const route = routes[key(one)]
    if (route === undefined) {
      unrouted.push(key(one))
      return toResponse(refusal(404, "not_found", `No route for ${key(one)} in this test.`) as Answer)
    }
    return toResponse(typeof route === "function" ? await route(one) : route)
  }
  return node
}

afterEach(() => {
  globalThis.fetch = realFetch
})

/**
 * The words an element shows, its shadow roots' (and their elements' shadow roots') included,
 * with a space between blocks and none inside a line ("Done · 12 ms", "(left this device)."); "" for nothing.
 */
export const textOf = (root: Element | ShadowRoot | null): string => {
  if (root === null) return ""
  const parts: Array<string> = []
  const walk = (node: Node): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      parts.push(node.textContent ?? "")
      return
    }
    if (node instanceof Element && (node.tagName === "STYLE" || node.tagName === "SCRIPT")) return
    const block = node instanceof Element && getComputedStyle(node).display !== "inline"
    if (block) parts.push(" ")
    if (node instanceof Element && node.shadowRoot !== null) walk(node.shadowRoot)
    for (const child of Array.from(node.childNodes)) walk(child)
    if (block) parts.push(" ")
  }
  walk(root)
  return parts.join("").replace(/\s+/g, " ").trim()
}

/** Waits until the page shows what the test asserts (polled; fails after 10 s). */
export const until = (predicate: () => boolean, message?: string): Promise<void> =>
  waitUntil(predicate, message ?? `Never: ${predicate.toString()}`, { timeout: 10_000, interval: 20 })

/** Every element matching a selector, through shadow roots (a selector matches within one root). */
export const findAll = <E extends Element = HTMLElement>(root: Element | ShadowRoot, selector: string): Array<E> => {
  const found: Array<E> = []
  const walk = (node: Element | ShadowRoot): void => {
    found.push(...Array.from(node.querySelectorAll<E>(selector)))
    for (const child of Array.from(node.querySelectorAll("*"))) if (child.shadowRoot !== null) walk(child.shadowRoot)
  }
  walk(root instanceof Element && root.shadowRoot !== null ? root.shadowRoot : root)
  return found
}

/** The first element matching a selector, through shadow roots; fails the test when there is none. */
export const find = <E extends Element = HTMLElement>(root: Element | ShadowRoot, selector: string): E => {
  const first = findAll<E>(root, selector)[0]
  if (first === undefined) throw new Error(`Nothing matches ${selector}`)
  return first
}

/** A button (or link) by its words, through shadow roots. */
export const byText = <E extends HTMLElement = HTMLButtonElement>(
  root: Element | ShadowRoot,
  selector: string,
  words: string | RegExp
): E => {
  const hit = findAll<E>(root, selector).find((el) =>
    typeof words === "string" ? el.textContent?.trim() === words : words.test(el.textContent ?? "")
  )
  if (hit === undefined) throw new Error(`No ${selector} says ${String(words)}`)
  return hit
}

/** Types into named fields of an element's forms (by `name`), as the person would leave them. */
export const fill = (root: Element, values: Record<string, string>): void => {
  for (const [name, value] of Object.entries(values)) {
    const control = find<HTMLInputElement>(root, `[name="${name}"]`)
    control.value = value
    control.dispatchEvent(new Event("input", { bubbles: true, composed: true }))
    control.dispatchEvent(new Event("change", { bubbles: true, composed: true }))
  }
}
