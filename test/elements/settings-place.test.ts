import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/settings/settings-place.ts"
import type { SettingsPlace } from "../../ui/places/settings/settings-place.ts"
import { fakeNode, textOf } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

const links = (el: SettingsPlace) => Array.from(el.shadowRoot!.querySelectorAll("nav a")).map((a) => a.textContent)
const person = { ...owner, id: "b-bo", handle: "bo", isOwner: false }

describe("<settings-place>", () => {
  it("opens the account: sessions, email, password and themes", async () => {
    fakeNode({})
    const el = await fixture<SettingsPlace>(html`<settings-place .being=${owner}></settings-place>`)
    for (const tag of ["settings-sessions", "settings-email", "settings-password", "settings-themes"])
      expect(el.shadowRoot!.querySelector(tag), tag).not.to.equal(null)
    expect(el.shadowRoot!.querySelector('nav a[aria-current="page"]')!.textContent).to.equal("Account")
  })

  it("lists plugins and federation for the owner only, and tells anyone else why a section is empty", async () => {
    fakeNode({})
    const mine = await fixture<SettingsPlace>(html`<settings-place .being=${owner} section="plugins"></settings-place>`)
    expect(links(mine)).to.deep.equal([
      "Account",
      "Connections",
      "Notifications",
      "Assistants (MCP)",
      "Models",
      "Plugins",
      "Federation",
      "Your data"
    ])
    expect(mine.shadowRoot!.querySelector("settings-plugins")).not.to.equal(null)
    const theirs = await fixture<SettingsPlace>(
      html`<settings-place .being=${person} section="plugins"></settings-place>`
    )
    expect(links(theirs)).to.deep.equal(["Account", "Connections", "Notifications", "Assistants (MCP)", "Your data"])
    expect(theirs.shadowRoot!.querySelector("settings-plugins")).to.equal(null)
    expect(textOf(theirs)).to.contain("Owner only: plugins are installed by the owner of this node.")
    theirs.section = "federation"
    await theirs.updateComplete
    expect(textOf(theirs)).to.contain("Owner only: peers and this node's federation are the owner's.")
    theirs.section = "models"
    await theirs.updateComplete
    expect(textOf(theirs)).to.contain("Owner only: the owner binds the node's models.")
    theirs.section = "connections"
    await theirs.updateComplete
    expect(theirs.shadowRoot!.querySelector("settings-connections")!.hasAttribute("owner")).to.equal(false)
  })
})
