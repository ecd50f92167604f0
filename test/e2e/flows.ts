/** Steps several end-to-end tests take, done the way a person does them: through the forms. */
import type { Page, Response } from "playwright-core"

export interface Person {
  readonly displayName: string
  readonly handle: string
  readonly email: string
  readonly password: string
}

/** Fills the register form (its access code field is already filled from `?code=`) and sends it. */
export const submitRegistration = async (page: Page, person: Person): Promise<void> => {
  await page.getByLabel("Display name").fill(person.displayName)
  await page.getByLabel("Handle").fill(person.handle)
  await page.getByLabel("Email").fill(person.email)
  await page.getByLabel("Password", { exact: true }).fill(person.password)
  await page.getByRole("button", { name: "Register" }).click()
}

/**
 * Registers a person through the API, for tests whose subject is not registering (that is
 * access.test.ts's); answers the response, whose cookie is the new session.
 */
export const registerThroughApi = async (
  url: string,
  person: Person,
  accessCode: string
): Promise<globalThis.Response> => {
  const response = await fetch(`${url}/api/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...person, accessCode })
  })
  if (response.status !== 200)
    throw new Error(`registering ${person.handle} failed: ${response.status} ${await response.text()}`)
  return response
}

/** The session cookie a registration or log-in answered, as a `cookie` header. */
export const cookieOf = (response: globalThis.Response): string =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")

/** The owner registered with the bootstrap code and a member with a code the owner minted: their session cookies. */
export const ownerAndMember = async (url: string, ownerCode: string, owner: Person, member: Person) => {
  const ownerCookie = cookieOf(await registerThroughApi(url, owner, ownerCode))
  const minted = await fetch(`${url}/api/auth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie: ownerCookie },
    body: JSON.stringify({ count: 1 })
  })
  const [{ code }] = (await minted.json()) as Array<{ code: string }>
  return { ownerCookie, memberCookie: cookieOf(await registerThroughApi(url, member, code)) }
}

/** Logs in from the log-in page and waits for the desktop. */
export const logIn = async (page: Page, url: string, person: Person, password = person.password): Promise<void> => {
  await page.goto(`${url}/login`)
  await submitLogin(page, person.email, password)
  await waitForDesktop(page, person)
}

export const submitLogin = async (page: Page, email: string, password: string): Promise<void> => {
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password", { exact: true }).fill(password)
  await page.getByRole("button", { name: "Log in" }).click()
}

/** The rail's navigation landmark. */
export const rail = (page: Page) => page.getByRole("navigation", { name: "Places" })

/** Opens a place from the rail as a person would: on a phone, through More when it is not a tab. */
export const openFromRail = async (page: Page, name: string): Promise<void> => {
  // Desktop is always a visible tab: once it shows, the rail knows which of its links are tabs.
  await rail(page).getByRole("link", { name: "Desktop" }).waitFor()
  const link = rail(page).getByRole("link", { name, exact: true })
  if (!(await link.isVisible())) await rail(page).getByRole("button", { name: "More" }).click()
  await link.click()
}

/** Waits until the desktop says who is signed in. */
export const waitForDesktop = (page: Page, person: Person) =>
  page
    .locator("desktop-place .signed-in-as")
    .filter({ hasText: `Signed in as ${person.displayName} (@${person.handle})` })
    .waitFor()

/**
 * Collects what would mean the app is broken in the browser: uncaught exceptions and content
 * security policy violations (the host serves the app under a strict policy).
 */
export const watchForBreakage = (page: Page): ReadonlyArray<string> => {
  const problems: Array<string> = []
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`))
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) problems.push(message.text())
  })
  return problems
}

/** The element that has the keyboard, through the shadow roots it sits in: its tag and its text. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return { tag: active?.tagName.toLowerCase() ?? "", text: active?.textContent?.trim() ?? "" }
  })

/** A JSON call to a node's API with a session cookie, as a test sets a scene up; anything but 200 throws. */
export const call = async (url: string, cookie: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
  return answer.json() as Promise<Record<string, unknown>>
}

/** The two widths a browser flow runs at. */
export const viewports = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }]
] as const

/** The owner the end-to-end files register (each on a node of its own). */
export const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

/** Whether a response answers this method on this path. */
export const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path
