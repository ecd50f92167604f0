import { expect, fixture, html } from "@open-wc/testing"
import { capabilityNotes, pluginRiskStatement } from "../../kernel/contract/capabilities.ts"
import "../../ui/places/settings/plugins-available.ts"
import type { PluginsAvailable } from "../../ui/places/settings/plugins-available.ts"
import { fakeNode, textOf, until } from "./support/fake-node.ts"

const root = (el: PluginsAvailable) => el.shadowRoot!

const manifest = (mcp: Record<string, unknown>) => ({
  apiVersion: "1.0",
  id: "@test/beacon",
  version: "1.0.0",
  namespace: "beacon",
  name: "Beacon",
  capabilities: [{ kind: "network", reason: "its tools live on its server" }],
  mcp
})

const available = (mcp: Record<string, unknown>) => ({
  risk: pluginRiskStatement,
  capabilityNotes,
  plugins: [{ dir: "beacon", manifest: manifest(mcp), error: null, installed: false }]
})

const installed = {
  id: "@test/beacon",
  name: "Beacon",
  description: "",
  version: "1.0.0",
  namespace: "beacon",
  source: { kind: "local", dir: "beacon" },
  status: "active",
  error: null,
  capabilities: [{ kind: "network", reason: "its tools live on its server" }],
  granted: ["network"],
  contributions: []
}

describe("<plugins-available>", () => {
  it("asks for a remote MCP server's token and sends it with the install", async () => {
    const node = fakeNode({
      "GET /api/plugins/available": { json: available({ url: "https://tools.example/mcp" }) },
      "POST /api/plugins": { json: installed }
    })
    const el = await fixture<PluginsAvailable>(html`<plugins-available></plugins-available>`)
    await until(() => textOf(root(el)).includes("Beacon"))
    expect(textOf(root(el))).to.contain("https://tools.example/mcp")
    const token = root(el).querySelector<HTMLInputElement>('input[name="mcpToken"]')!
    expect(token.type).to.equal("password")
    await expect(el).to.be.accessible()
    root(el).querySelector<HTMLInputElement>('input[value="network"]')!.checked = true
    token.value = " secret-token "
    root(el).querySelector<HTMLFormElement>("form")!.requestSubmit()
    const sent = await node.request("POST /api/plugins")
    expect(sent.body).to.deep.equal({ dir: "beacon", granted: ["network"], mcpToken: "secret-token" })
    await until(() => textOf(root(el)).includes("Beacon is installed."))
  })

  it("sends no token when none is typed, and asks none of a stdio server", async () => {
    const node = fakeNode({
      "GET /api/plugins/available": { json: available({ url: "https://tools.example/mcp" }) },
      "POST /api/plugins": { json: installed }
    })
    const el = await fixture<PluginsAvailable>(html`<plugins-available></plugins-available>`)
    await until(() => textOf(root(el)).includes("Beacon"))
    root(el).querySelector<HTMLFormElement>("form")!.requestSubmit()
    expect((await node.request("POST /api/plugins")).body).to.deep.equal({ dir: "beacon", granted: [] })

    fakeNode({ "GET /api/plugins/available": { json: available({ command: "server.py" }) } })
    const stdio = await fixture<PluginsAvailable>(html`<plugins-available></plugins-available>`)
    await until(() => textOf(root(stdio)).includes("Beacon"))
    expect(root(stdio).querySelector('input[name="mcpToken"]')).to.equal(null)
  })
})
