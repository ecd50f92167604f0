import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../ui/components/confirm-dialog.ts"

const question = {
  title: "Delete code ABC?",
  message: "Nobody can register with it afterwards.",
  confirm: "Delete the code"
}

const open = async () => {
  const el = await fixture<ConfirmDialog>(html`<confirm-dialog></confirm-dialog>`)
  const answer = el.ask(question)
  await el.updateComplete
  const dialog = el.shadowRoot!.querySelector("dialog")!
  return { el, answer, dialog }
}

describe("<confirm-dialog>", () => {
  it("opens as a modal dialog named by its question, with the keyboard on Cancel", async () => {
    const { el, dialog } = await open()
    expect(dialog.open).to.equal(true)
    expect(dialog.matches(":modal")).to.equal(true)
    expect(el.shadowRoot!.getElementById(dialog.getAttribute("aria-labelledby")!)!.textContent).to.equal(
      "Delete code ABC?"
    )
    expect(el.shadowRoot!.getElementById(dialog.getAttribute("aria-describedby")!)!.textContent).to.equal(
      question.message
    )
    expect(el.shadowRoot!.activeElement?.textContent).to.equal("Cancel")
    await expect(el).to.be.accessible()
  })

  it("answers true for the confirming button", async () => {
    const { answer, dialog } = await open()
    const closed = oneEvent(dialog, "close")
    dialog.querySelector<HTMLButtonElement>("button.danger")!.click()
    await closed
    expect(await answer).to.equal(true)
    expect(dialog.open).to.equal(false)
  })

  it("answers false for Cancel", async () => {
    const { answer, dialog } = await open()
    dialog.querySelector<HTMLButtonElement>("button.secondary")!.click()
    expect(await answer).to.equal(false)
  })

  it("answers false for Escape, and for Enter pressed on the Cancel it starts on", async () => {
    const first = await open()
    const closed = oneEvent(first.dialog, "close")
    await sendKeys({ press: "Escape" })
    await closed
    expect(await first.answer).to.equal(false)

    const second = first.el.ask(question)
    await first.el.updateComplete
    expect(first.dialog.open).to.equal(true)
    await sendKeys({ press: "Enter" })
    expect(await second).to.equal(false)
  })

  it("returns the keyboard to the button that asked", async () => {
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><button id="ask">Delete</button><confirm-dialog></confirm-dialog></div>`
    )
    const button = wrapper.querySelector<HTMLButtonElement>("#ask")!
    const el = wrapper.querySelector("confirm-dialog")!
    button.focus()
    const answer = el.ask(question)
    await el.updateComplete
    await sendKeys({ press: "Escape" })
    await answer
    expect(document.activeElement).to.equal(button)
  })

  it("a second question answers the first one false", async () => {
    const { el, answer } = await open()
    const second = el.ask({ ...question, title: "Suspend Ada?" })
    expect(await answer).to.equal(false)
    await el.updateComplete
    expect(el.shadowRoot!.querySelector("h2")!.textContent).to.equal("Suspend Ada?")
    el.shadowRoot!.querySelector<HTMLButtonElement>("button.danger")!.click()
    expect(await second).to.equal(true)
  })
})
