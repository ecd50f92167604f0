import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/register/restore-backup.ts"
import type { RestoreBackup } from "../../ui/places/register/restore-backup.ts"
import { fakeNode, textOf, until } from "./support/fake-node.ts"

const availability = "GET /api/setup/restore"

describe("<restore-backup>", () => {
  it("offers a restore while the node takes one", async () => {
    const node = fakeNode({ [availability]: { json: { available: true, reason: null, maxBytes: 8 * 1024 ** 3 } } })
    const el = await fixture<RestoreBackup>(html`<restore-backup></restore-backup>`)
    await until(() => textOf(el).includes("Restore from a backup"))
    expect(textOf(el)).to.include("At most 8.0 GB")
    expect(el.shadowRoot!.querySelector('input[type="file"][name="file"]')).to.not.equal(null)
    expect(el.shadowRoot!.querySelector('input[type="password"][name="passphrase"]')).to.not.equal(null)
    expect(node.to(availability)).to.have.length(1)
    await expect(el).to.be.accessible()
  })
})
