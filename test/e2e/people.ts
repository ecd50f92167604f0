/**
 * A node with two people for flows whose subject is not signing in: the owner (registered with
 * the node's owner code) and a member (with a code the owner mints), each signed in through the
 * API with the session cookie the register answer set, and tabs of either at any width.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, registerThroughApi } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

export interface SignedIn {
  readonly being: { readonly id: string; readonly displayName: string; readonly handle: string }
  /** The `svc_session` cookie's value. */
  readonly session: string
}

export const ownerPerson: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
export const memberPerson: Person = {
  displayName: "Milo Member",
  handle: "milo",
  email: "milo@example.org",
  password: "milo-password-1"
}

export const phone = { width: 390, height: 844 } as const
export const desktop = { width: 1280, height: 800 } as const

const signedIn = async (response: globalThis.Response): Promise<SignedIn> => {
  const [pair] = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  const { being } = (await response.json()) as { being: SignedIn["being"] }
  return { being, session: pair!.slice("svc_session=".length) }
}

const mintCode = async (url: string, owner: SignedIn): Promise<string> => {
  const minted = await fetch(`${url}/api/auth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `svc_session=${owner.session}` },
    body: JSON.stringify({ count: 1 })
  })
  if (minted.status !== 200) throw new Error(`minting a code failed: ${minted.status} ${await minted.text()}`)
  const [{ code }] = (await minted.json()) as Array<{ code: string }>
  return code
}

/** Whether the page is wider than the screen (something runs off its side). */
export const overflow = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)

export interface TwoPeople {
  readonly node: RunningNode
  readonly owner: SignedIn
  readonly member: SignedIn
  /** A tab of the person on `path`, at the width given, once the live channel is up. */
  readonly open: (person: SignedIn, path: string, viewport?: { width: number; height: number }) => Promise<Page>
}

/** Starts a node and a browser before the file's tests and registers the two; stops them after. */
export const nodeWithTwoPeople = (): TwoPeople => {
  let started: { node: RunningNode; browser: Browser; owner: SignedIn; member: SignedIn } | undefined
  const contexts: Array<BrowserContext> = []
  const get = () => {
    if (started === undefined) throw new Error("The node starts in beforeAll: use it inside a test.")
    return started
  }

  beforeAll(async () => {
    const [node, browser] = await Promise.all([startNode(), launchBrowser()])
    const owner = await signedIn(await registerThroughApi(node.url, ownerPerson, node.ownerCode))
    const member = await signedIn(await registerThroughApi(node.url, memberPerson, await mintCode(node.url, owner)))
    started = { node, browser, owner, member }
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await started?.browser.close()
    await started?.node.stop()
  })

  return {
    get node() {
      return get().node
    },
    get owner() {
      return get().owner
    },
    get member() {
      return get().member
    },
    open: async (person, path, viewport = desktop) => {
      const { browser, node } = get()
      const context = await browser.newContext({ timezoneId: "UTC", locale: "en-GB", viewport })
      contexts.push(context)
      await context.addCookies([{ name: "svc_session", value: person.session, url: node.url }])
      const page = await context.newPage()
      await page.goto(`${node.url}${path}`)
      await page.locator('node-rail .live[data-state="live"]').waitFor()
      return page
    }
  }
}
