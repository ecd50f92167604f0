/**
 * The owner sets a plugin provider's OAuth client in Settings → Connections, at desktop and phone
 * width: before, the provider's Connect says what is missing instead of a link that would fail
 * after the redirect; the owner types the client id and secret, the secret leaves the page, and
 * Connect then runs the consent against the loopback OAuth server and comes back connected.
 */
import { rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"
import { launchBrowser } from "./browser.ts"
import { call, cookieOf, registerThroughApi, viewports, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { overflow, ownerPerson } from "./people.ts"

const provider = "cloud.notes"

describe("OAuth clients in Settings", () => {
  let node: RunningNode
  let browser: Browser
  let google: FakeGoogle
  let cookie: string
  let pluginDir: string

  beforeAll(async () => {
    google = await startGoogle()
    pluginDir = join(tmpdir(), `node-e2e-oauth-${process.pid}-${Date.now()}`)
    writePluginFolder(
      pluginDir,
      "cloud",
      { extensions: [{ kind: "integration", id: "notes", title: "Cloud notes", uses: [] }] },
      `export const activate = (context) => context.contribute("integration", "notes", {
  auth: { kind: "oauth2", authorizeUrl: ${JSON.stringify(`${google.url}/o/oauth2/v2/auth`)}, tokenUrl: ${JSON.stringify(`${google.url}/token`)}, scopes: ["notes"] }
})
`
    )
    ;[node, browser] = await Promise.all([
      startNode({
        env: {
          PLUGIN_DIR: pluginDir,
          ENCRYPTION_KEY: "a long passphrase for the browser tests",
          WEB_ALLOW_PRIVATE: "true"
        }
      }),
      launchBrowser()
    ])
    cookie = cookieOf(await registerThroughApi(node.url, ownerPerson, node.ownerCode))
    await call(node.url, cookie, "POST", "/api/plugins", { dir: "cloud", granted: [] })
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await google?.close()
    await rm(pluginDir, { recursive: true, force: true })
  })

  for (const [name, viewport] of viewports) {
    test(`sets the client and connects with it at ${name} width`, async () => {
      const state = await fetch(`${node.url}/api/twin/oauth-clients`, { headers: { cookie } }).then(
        (r) => r.json() as Promise<Array<{ source: string }>>
      )
      if (state[0]?.source === "settings") await call(node.url, cookie, "DELETE", `/api/twin/oauth-clients/${provider}`)
      const context = await browser.newContext({ viewport })
      await context.addCookies([{ name: "svc_session", value: cookie.slice("svc_session=".length), url: node.url }])
      const page = await context.newPage()
      const problems = watchForBreakage(page)
      await page.goto(`${node.url}/settings?section=connections`)
      const entry = page
        .getByRole("list", { name: "Providers" })
        .getByRole("listitem")
        .filter({ has: page.getByRole("heading", { name: "Cloud notes" }) })
      await entry.getByText("set its client id and secret under OAuth clients below").waitFor()
      expect(await entry.getByRole("link", { name: "Connect Cloud notes" }).count()).toBe(0)

      const form = page.getByRole("form", { name: `OAuth client for ${provider}` })
      await form.getByLabel("Client id").fill(clientId)
      await form.getByLabel("Client secret").fill(clientSecret)
      await form.getByRole("button", { name: "Save client" }).click()
      await page.getByText(`The OAuth client for ${provider} is saved.`).waitFor()
      expect(await form.getByLabel("Client secret").inputValue()).toBe("")
      await page
        .getByRole("list", { name: "OAuth clients" })
        .getByText("Set here; the secret is kept encrypted")
        .waitFor()
      expect(await overflow(page)).toBeLessThanOrEqual(0)

      const connect = entry.getByRole("link", { name: "Connect Cloud notes" })
      await connect.waitFor()
      const pageText = await page.evaluate(() => document.documentElement.outerHTML)
      expect(pageText).not.toContain(clientSecret)
      await connect.click()
      await page.waitForURL(`${node.url}/twin?connected=${provider}`)
      expect(google.tokenCalls.at(-1)).toMatchObject({ grant: "authorization_code", form: { client_id: clientId } })
      expect(problems).toEqual([])
      await context.close()
    })
  }
})
