/**
 * People signed in through the API, for flows whose subject is not signing in: the owner (with
 * the node's owner code) and members (with a code the owner mints), each with the session cookie
 * the register answer set, and browser contexts that carry it at any width.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { type Person, registerThroughApi } from "./flows.ts"

export interface SignedIn {
  readonly being: { readonly id: string; readonly displayName: string; readonly handle: string }
  /** The `svc_session` cookie's value. */
  readonly session: string
}

const signedIn = async (response: globalThis.Response): Promise<SignedIn> => {
  const [pair] = response.headers.getSetCookie().find((cookie) => cookie.startsWith("svc_session="))!.split(";")
  const { being } = (await response.json()) as { being: SignedIn["being"] }
  return { being, session: pair!.slice("svc_session=".length) }
}

export const registerOwner = async (url: string, owner: Person, ownerCode: string): Promise<SignedIn> =>
  signedIn(await registerThroughApi(url, owner, ownerCode))

/** A member, registered with an access code the owner mints. */
export const registerMember = async (url: string, owner: SignedIn, member: Person): Promise<SignedIn> => {
  const minted = await fetch(`${url}/api/auth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: `svc_session=${owner.session}` },
    body: JSON.stringify({ count: 1 })
  })
  if (minted.status !== 200) throw new Error(`minting a code failed: ${minted.status} ${await minted.text()}`)
  const [{ code }] = (await minted.json()) as Array<{ code: string }>
  return signedIn(await registerThroughApi(url, member, code))
}

export const phone = { width: 390, height: 844 } as const
export const desktop = { width: 1280, height: 800 } as const

/** A browser context signed in as the person, at the width given. */
export const contextOf = async (browser: Browser, url: string, person: SignedIn, viewport: { width: number; height: number } = desktop): Promise<BrowserContext> => {
  const context = await browser.newContext({ timezoneId: "UTC", locale: "en-GB", viewport })
  await context.addCookies([{ name: "svc_session", value: person.session, url }])
  return context
}

/** Whether the page is wider than the screen (something runs off its side). */
export const overflow = (page: Page) =>
  page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth)
