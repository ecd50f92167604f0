/**
 * The owner's seeds in Settings, at desktop and phone width: pair a device by its did with storage
 * ticked; the device (a key held here, signing with the node's own wire functions) knocks and
 * beats; the list shows its note and counts; the owner grants signals too, blocks it, and removes
 * it after a confirmation. A member has no federation section.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { newKeyPair } from "../../extensions/federation/wire/did-key.ts"
import { signPayload } from "../../extensions/federation/wire/signed.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, ownerAndMember, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Sela Owner",
  handle: "sela",
  email: "sela@example.org",
  password: "sela-password-1"
}
const member: Person = {
  displayName: "Milo Member",
  handle: "milo",
  email: "milo@example.org",
  password: "milo-password-1"
}

const post = async (url: string, body: unknown) =>
  (await (
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  ).json()) as Record<string, unknown>

describe("the owner's seeds in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let ownerCookie: string
  let memberCookie: string

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    ;({ ownerCookie, memberCookie } = await ownerAndMember(node.url, node.ownerCode, owner, member))
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
  })

  const open = async (cookie: string, path: string, viewport = { width: 1280, height: 900 }) => {
    const context = await browser.newContext({ viewport })
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}${path}`)
    return { page, problems }
  }

  /** A device that knocks, then beats once with `note`. */
  const beat = async (device: ReturnType<typeof newKeyPair>, note: string) => {
    const greeting = await post(`${node.url}/api/federation/seed/knock`, { v: 1, protocol: 1, did: device.did })
    expect(greeting.accepted).toBe(true)
    const document = signPayload(
      {
        v: 1,
        type: "svc.seed.beat",
        did: device.did,
        aud: greeting.node,
        seq: (greeting.seq as number) + 1,
        nonce: greeting.nonce,
        note
      },
      device.secretKey
    )
    expect((await post(`${node.url}/api/federation/seed/beat`, document)).accepted).toBe(true)
  }

  const pairThroughForm = async (page: Page, did: string, name: string, grants: ReadonlyArray<string>) => {
    const form = page.getByRole("form", { name: "Pair a seed" })
    await form.getByLabel("Its did").fill(did)
    await form.getByLabel("Name").fill(name)
    for (const grant of grants) await form.getByRole("checkbox", { name: new RegExp(`^${grant}`, "i") }).check()
    await form.getByRole("button", { name: "Pair" }).click()
    await page.getByText(`${name} is paired.`).waitFor()
  }

  for (const [width, viewport] of [
    ["desktop", { width: 1280, height: 900 }],
    ["phone", { width: 390, height: 844 }]
  ] as const) {
    test(`pairs, shows a beat, edits grants, blocks and removes a seed (${width})`, async () => {
      const { page, problems } = await open(ownerCookie, "/settings", viewport)
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Federation" })
        .click()
      expect(new URL(page.url()).search).toBe("?section=federation")
      const device = newKeyPair()
      const name = `Porch sensor ${width}`
      await pairThroughForm(page, device.did, name, ["storage"])
      const seed = page.getByRole("list", { name: "Paired seeds" }).getByRole("listitem", { name })
      await seed.getByText(device.did).waitFor()
      expect(await seed.locator(".grants").textContent()).toBe("storage")
      await seed.getByText("Paired", { exact: true }).waitFor()

      await beat(device, `hello from the ${width} porch`)
      // Granting signals too reloads the list: the beat shows with it.
      await seed.getByRole("checkbox", { name: /^Signals/ }).check()
      await seed.getByRole("button", { name: `Save the grants of ${name}` }).click()
      await page.getByText(`${name} may use signals and storage.`).waitFor()
      await seed.getByText(`hello from the ${width} porch`).waitFor()
      await seed.getByText("1 beat · 0 acts · 0 refused").waitFor()
      // Nothing is wider than the screen, the did included.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

      await seed.getByRole("button", { name: `Block ${name}` }).click()
      await seed.getByText("Blocked", { exact: true }).waitFor()
      const knock = await post(`${node.url}/api/federation/seed/knock`, { v: 1, protocol: 1, did: device.did })
      expect(knock).toMatchObject({ accepted: false, nonce: null })

      await seed.getByRole("button", { name: `Remove ${name}` }).click()
      const dialog = page.getByRole("dialog", { name: `Remove ${name}?` })
      await dialog.getByText("Its being, and what it stored, stay on this node.").waitFor()
      await dialog.getByRole("button", { name: "Remove" }).click()
      await page.getByText(`${name} is removed.`).waitFor()
      await seed.waitFor({ state: "detached" })
      expect(problems).toEqual([])
    })
  }

  test("refuses a did that is not one, and pairs nothing", async () => {
    const { page } = await open(ownerCookie, "/settings?section=federation")
    const form = page.getByRole("form", { name: "Pair a seed" })
    await form.getByLabel("Its did").fill("did:key:nothing")
    await form.getByLabel("Name").fill("Broken")
    await form.getByRole("button", { name: "Pair" }).click()
    await page.getByRole("alert").first().waitFor()
    expect(await page.getByRole("list", { name: "Paired seeds" }).count()).toBe(0)
  })

  test("a member has no federation section", async () => {
    const { page } = await open(memberCookie, "/settings?section=federation")
    await page.getByRole("heading", { name: "Settings" }).waitFor()
    expect(
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Federation" })
        .count()
    ).toBe(0)
    expect(await page.locator("settings-federation-seeds").count()).toBe(0)
  })
})
