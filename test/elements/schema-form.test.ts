import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/components/schema-form.ts"
import type { SchemaForm } from "../../ui/components/schema-form.ts"

const schema = {
  type: "object",
  required: ["topic", "length"],
  properties: {
    topic: {
      type: "string",
      title: "Topic",
      description: "What the piece is about.",
      minLength: 3,
      maxLength: 300,
      "x-placeholder": "Tea"
    },
    length: { type: "integer", title: "Length", minimum: 400, maximum: 4000, default: 800 },
    tone: { type: "string", title: "Tone", enum: ["plain", "warm"] },
    notes: { type: "string", title: "Notes", "x-multiline": true },
    withSources: { type: "boolean", title: "Cite sources" },
    style: { type: "string", title: "Citation style", "x-showWhen": "withSources" },
    audience: { type: "string", title: "Audience", minLength: 2, "x-advanced": true },
    tags: { type: "array", title: "Tags", items: { type: "string" } }
  }
}

const make = () => fixture<SchemaForm>(html`<schema-form .schema=${schema} submitLabel="Start the run"></schema-form>`)
const control = <E extends HTMLElement = HTMLInputElement>(el: SchemaForm, name: string) =>
  el.shadowRoot!.querySelector<E>(`#field-${name}`)!

describe("<schema-form>", () => {
  it("draws each property as a labelled control with its help, bounds and required mark", async () => {
    const el = await make()
    const topic = control(el, "topic")
    expect(topic.required).to.equal(true)
    expect(topic.placeholder).to.equal("Tea")
    expect(el.shadowRoot!.getElementById(topic.getAttribute("aria-describedby")!)!.textContent).to.contain(
      "What the piece is about."
    )
    expect(el.shadowRoot!.querySelector('label[for="field-topic"] .required')!.getAttribute("aria-hidden")).to.equal(
      "true"
    )
    const length = control(el, "length")
    expect([length.type, length.min, length.max, length.step, length.value]).to.deep.equal([
      "number",
      "400",
      "4000",
      "1",
      "800"
    ])
    const tone = control<HTMLSelectElement>(el, "tone")
    expect(Array.from(tone.options).map((o) => o.textContent!.trim())).to.include.members(["(none)"])
    expect(control(el, "notes").tagName).to.equal("TEXTAREA")
    expect(el.shadowRoot!.querySelector(".unsupported")!.textContent).to.match(/“Tags” takes a list/)
    expect(el.shadowRoot!.querySelector("button[type=submit]")!.textContent).to.equal("Start the run")
    await expect(el).to.be.accessible()
  })

  it("sends the values typed as the schema says, leaving empty fields out, when Enter submits", async () => {
    const el = await make()
    control(el, "topic").focus()
    await sendKeys({ type: "Green tea" })
    const submitted = oneEvent(el, "schema-form-submit")
    await sendKeys({ press: "Enter" })
    const { detail } = await submitted
    expect(detail.values).to.deep.equal({ topic: "Green tea", length: 800, withSources: false })
  })

  it("sends nothing while a required field is empty, and opens Advanced when its field stops the submit", async () => {
    const el = await make()
    let sent = 0
    el.addEventListener("schema-form-submit", () => sent++)
    el.shadowRoot!.querySelector<HTMLButtonElement>("button[type=submit]")!.click()
    expect(sent).to.equal(0)
    expect(control(el, "topic").validity.valueMissing).to.equal(true)
  })

  it("opens Advanced by itself when a required field under it stops the submit", async () => {
    const el = await fixture<SchemaForm>(
      html`<schema-form .schema=${{ ...schema, required: ["audience"] }}></schema-form>`
    )
    let sent = 0
    el.addEventListener("schema-form-submit", () => sent++)
    const details = el.shadowRoot!.querySelector("details")!
    expect(details.open).to.equal(false)
    el.shadowRoot!.querySelector<HTMLButtonElement>("button[type=submit]")!.click()
    expect(sent).to.equal(0)
    expect(details.open).to.equal(true)
  })

  it("shows a field while its checkbox is checked, and keeps what was typed when hidden", async () => {
    const el = await make()
    const style = control(el, "style")
    expect(style.disabled).to.equal(true)
    expect(style.closest<HTMLElement>(".field")!.hidden).to.equal(true)
    control(el, "withSources").click()
    await el.updateComplete
    expect(style.disabled).to.equal(false)
    style.value = "APA"
    control(el, "topic").value = "Green tea"
    const submitted = oneEvent(el, "schema-form-submit")
    el.shadowRoot!.querySelector<HTMLButtonElement>("button[type=submit]")!.click()
    expect((await submitted).detail.values).to.include({ withSources: true, style: "APA" })
    control(el, "withSources").click()
    await el.updateComplete
    expect(style.disabled).to.equal(true)
    expect(style.value).to.equal("APA")
  })

  it("fills the controls from earlier values instead of the defaults, and rests while busy", async () => {
    const el = await fixture<SchemaForm>(
      html`<schema-form .schema=${schema} .values=${{ topic: "Oolong", length: 1200, tone: "warm" }} busy></schema-form>`
    )
    expect(control(el, "topic").value).to.equal("Oolong")
    expect(control(el, "length").value).to.equal("1200")
    expect(control<HTMLSelectElement>(el, "tone").selectedOptions[0]!.textContent!.trim()).to.equal("warm")
    expect(el.shadowRoot!.querySelector<HTMLButtonElement>("button[type=submit]")!.disabled).to.equal(true)
  })
})
