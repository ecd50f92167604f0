import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/components/did-copy.ts"
import { until } from "./support/fake-node.ts"
import type { DidCopy } from "../../ui/components/did-copy.ts"

const did = "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK"

const stubClipboard = (writeText: (text: string) => Promise<void>) => {
  const original = Object.getOwnPropertyDescriptor(Navigator.prototype, "clipboard")!
  Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } })
  return () => {
    delete (navigator as unknown as Record<string, unknown>).clipboard
    Object.defineProperty(Navigator.prototype, "clipboard", original)
  }
}

describe("<did-copy>", () => {
  it("shows the did whole, with a copy button named by what it copies", async () => {
    const el = await fixture<DidCopy>(html`<did-copy .did=${did} label="this node's did"></did-copy>`)
    expect(el.shadowRoot!.querySelector("code")!.textContent).to.equal(did)
    expect(el.shadowRoot!.querySelector("button")!.getAttribute("aria-label")).to.equal("Copy this node's did")
    await expect(el).to.be.accessible()
  })

  it("copies it and says so", async () => {
    const copied: Array<string> = []
    const restore = stubClipboard(async (text) => {
      copied.push(text)
    })
    try {
      const el = await fixture<DidCopy>(html`<did-copy .did=${did}></did-copy>`)
      el.shadowRoot!.querySelector("button")!.click()
      const status = el.shadowRoot!.querySelector('[role="status"]')!
      await until(() => status.textContent === "Copied.")
      expect(copied).to.deep.equal([did])
    } finally {
      restore()
    }
  })

  it("selects the did when the clipboard is refused", async () => {
    const restore = stubClipboard(() => Promise.reject(new DOMException("denied", "NotAllowedError")))
    try {
      const el = await fixture<DidCopy>(html`<did-copy .did=${did}></did-copy>`)
      el.shadowRoot!.querySelector("button")!.click()
      const status = el.shadowRoot!.querySelector('[role="status"]')!
      await until(() => status.textContent !== "")
      expect(status.textContent).to.equal("Selected: copy it with your keyboard.")
      expect(getSelection()!.toString()).to.equal(did)
    } finally {
      restore()
    }
  })
})
