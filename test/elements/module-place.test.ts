import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/module/module-place.ts"
import type { ModulePlace } from "../../ui/places/module/module-place.ts"
import { fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"

const plugins = "GET /api/plugins"
const plugin = (status: "active" | "error") => ({
  id: "acme-notes",
  name: "Notes",
  description: "A notebook.",
  version: "1.0.0",
  namespace: "acme",
  source: { kind: "builtin" },
  status,
  error: status === "error" ? "It failed to start." : null,
  capabilities: [],
  granted: [],
  contributions: [{ kind: "module", name: "acme.notes", title: "Notebook" }]
})

describe("<module-place>", () => {
  // The installed plugins are asked once per page and kept; a change of plugins forgets them.
  afterEach(() => window.dispatchEvent(new Event("plugins-changed")))

  it("says it is loading, then shows the module in a sandboxed frame named by its title", async () => {
    const list = held()
    fakeNode({ [plugins]: list.answer })
    const el = await fixture<ModulePlace>(html`<module-place name="acme.notes"></module-place>`)
    expect(textOf(el)).to.contain("Loading…")
    list.release({ json: [plugin("active")] })
    await until(() => el.shadowRoot!.querySelector("iframe") !== null)
    const frame = el.shadowRoot!.querySelector("iframe")!
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Notebook")
    expect(frame.getAttribute("sandbox")).to.equal("allow-scripts")
    expect(frame.title).to.equal("Notebook")
    expect(frame.getAttribute("src")).to.equal("/api/modules/acme-notes/notes/document")
  })

  it("says when no active plugin has the module, and a failed load in the node's words", async () => {
    fakeNode({ [plugins]: { json: [plugin("error")] } })
    const el = await fixture<ModulePlace>(html`<module-place name="acme.notes"></module-place>`)
    await until(() => textOf(el).includes("No installed plugin has a module named acme.notes."))
    window.dispatchEvent(new Event("plugins-changed"))
    fakeNode({ [plugins]: refusal(403, "forbidden", "Plugins are the owner's.") })
    const failed = await fixture<ModulePlace>(html`<module-place name="acme.notes"></module-place>`)
    await until(() => textOf(failed).includes("Plugins are the owner's."))
  })
})
