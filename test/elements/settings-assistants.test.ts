import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/settings/settings-assistants.ts"
import type { DidCopy } from "../../ui/components/did-copy.ts"
import type { SettingsAssistants } from "../../ui/places/settings/settings-assistants.ts"
import { fakeNode, refusal, textOf, until } from "./support/fake-node.ts"

const laptop = { id: "c-1", name: "Laptop", grants: ["memory.read"], createdAt: "2030-01-02T03:04:05.000Z" }
const token = "pmcp_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"

const root = (el: SettingsAssistants) => el.shadowRoot!

describe("<settings-assistants>", () => {
  it("lists the person's assistants with their grants, and revokes one", async () => {
    let clients = [laptop]
    const node = fakeNode({
      "GET /api/mcp/clients": () => ({ json: clients }),
      "DELETE /api/mcp/clients/c-1": () => {
        clients = []
        return { json: { ok: true } }
      }
    })
    const el = await fixture<SettingsAssistants>(html`<settings-assistants></settings-assistants>`)
    await until(() => textOf(root(el)).includes("Laptop"))
    expect(textOf(root(el))).to.contain("memory.read")
    root(el).querySelector<HTMLButtonElement>('button[aria-label="Revoke Laptop"]')!.click()
    await until(() => textOf(root(el)).includes("Laptop is revoked"))
    expect(node.to("DELETE /api/mcp/clients/c-1")).to.have.length(1)
    await until(() => textOf(root(el)).includes("No assistant has a token yet."))
  })

  it("mints with the ticked grants and shows the token once, with a configuration to paste", async () => {
    const node = fakeNode({
      "GET /api/mcp/clients": { json: [] },
      "POST /api/mcp/clients": (sent) => ({
        json: { ...laptop, id: "c-2", ...(sent.body as object), token }
      })
    })
    const el = await fixture<SettingsAssistants>(html`<settings-assistants></settings-assistants>`)
    const form = root(el).querySelector<HTMLFormElement>('form[aria-label="New assistant"]')!
    form.querySelector<HTMLInputElement>("input[name=name]")!.value = "  Desk  "
    form.querySelector<HTMLInputElement>('input[value="todos.read"]')!.checked = true
    form.querySelector<HTMLInputElement>('input[value="files.read"]')!.checked = true
    form.requestSubmit()
    const sent = await node.request("POST /api/mcp/clients")
    expect(sent.body).to.deep.equal({ name: "Desk", grants: ["todos.read", "files.read"] })
    await until(() => root(el).querySelector("did-copy.token") !== null)
    expect(root(el).querySelector<DidCopy>("did-copy.token")!.did).to.equal(token)
    const config = JSON.parse(root(el).querySelector<DidCopy>("did-copy.config")!.did)
    expect(config.mcpServers["personal-node"]).to.deep.equal({
      type: "http",
      url: `${location.origin}/api/mcp`,
      headers: { Authorization: `Bearer ${token}` }
    })
    expect(textOf(root(el))).to.contain("it is not shown again")
    await expect(el).to.be.accessible()
    // Once the person has it, it is gone from the page.
    Array.from(root(el).querySelectorAll("button"))
      .find((button) => button.textContent === "I have copied it")!
      .click()
    await el.updateComplete
    expect(root(el).querySelector("did-copy")).to.equal(null)
    expect(textOf(root(el))).not.to.contain(token)
  })

  it("asks for a grant before sending, and tells the node's refusal", async () => {
    const node = fakeNode({
      "GET /api/mcp/clients": { json: [] },
      "POST /api/mcp/clients": refusal(409, "too_many_clients", "You have 50 MCP clients already.")
    })
    const el = await fixture<SettingsAssistants>(html`<settings-assistants></settings-assistants>`)
    const form = root(el).querySelector<HTMLFormElement>('form[aria-label="New assistant"]')!
    form.querySelector<HTMLInputElement>("input[name=name]")!.value = "Desk"
    form.requestSubmit()
    await until(() => textOf(root(el)).includes("Tick at least one thing"))
    expect(node.to("POST /api/mcp/clients")).to.have.length(0)
    form.querySelector<HTMLInputElement>('input[value="memory.write"]')!.checked = true
    form.requestSubmit()
    await until(() => textOf(root(el)).includes("You have 50 MCP clients already."))
  })
})
