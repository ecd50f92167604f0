import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/components/read-aloud.ts"
import type { ReadAloud } from "../../ui/components/read-aloud.ts"
import { fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"

const route = "POST /api/threads/t1/messages/m1/speech"

const make = () => fixture<ReadAloud>(html`<read-aloud threadId="t1" messageId="m1"></read-aloud>`)

describe("<read-aloud>", () => {
  it("asks the node for the message's speech, rests while it comes, then offers the audio", async () => {
    const speech = held()
    const node = fakeNode({ [route]: speech.answer })
    const el = await make()
    await expect(el).to.be.accessible()
    el.shadowRoot!.querySelector("button")!.click()
    await node.request(route)
    await el.updateComplete
    const button = el.shadowRoot!.querySelector("button")!
    expect(button.disabled).to.equal(true)
    expect(button.textContent!.trim()).to.equal("Preparing the voice…")
    speech.release(
      new Response(new Blob([new Uint8Array([0x49, 0x44, 0x33])], { type: "audio/mpeg" }), { status: 200 })
    )
    await until(() => el.shadowRoot!.querySelector("audio") !== null)
    expect(el.shadowRoot!.querySelector("audio")!.src).to.match(/^blob:/)
    expect(el.shadowRoot!.querySelector("button")!.disabled).to.equal(false)
  })

  it("says a refusal in the node's words", async () => {
    fakeNode({ [route]: refusal(409, "speech_unavailable", "No speech model is bound to this node.") })
    const el = await make()
    el.shadowRoot!.querySelector("button")!.click()
    await until(() => textOf(el).includes("No speech model"))
    expect(el.shadowRoot!.querySelector("audio")).to.equal(null)
    expect(el.shadowRoot!.querySelector("button")!.textContent!.trim()).to.equal("Read aloud")
  })

  it("says when the node does not answer", async () => {
    fakeNode({ [route]: () => Promise.reject(new TypeError("Failed to fetch")) })
    const el = await make()
    el.shadowRoot!.querySelector("button")!.click()
    await until(() => textOf(el).includes("The node did not answer"))
  })
})
