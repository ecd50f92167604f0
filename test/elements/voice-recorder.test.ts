import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/components/voice-recorder.ts"
import type { VoiceRecorder } from "../../ui/components/voice-recorder.ts"
import { fakeNode, refusal, textOf, until } from "./support/fake-node.ts"

const status = (over: Record<string, unknown> = {}) => ({
  available: true,
  reason: null,
  provider: "remote",
  requested: "remote",
  model: "whisper-1",
  baseUrl: "https://stt.example",
  leavesDevice: true,
  destination: "whisper-1 at stt.example",
  costsMoney: true,
  usdPerMinute: 0.006,
  consentKey: "remote|stt.example|whisper-1",
  consented: false,
  consentedAt: null,
  note: "Audio is kept by the provider for 30 days.",
  ...over
})

const transcript = {
  text: "Buy oolong on Friday.",
  language: "en",
  audioSeconds: 2,
  bytes: 3000,
  format: "webm",
  model: "whisper-1",
  provider: "remote",
  leavesDevice: true,
  destination: "whisper-1 at stt.example",
  costUsd: 0.0002,
  durationMs: 420
}

/** A microphone without hardware: a silent stream from an AudioContext. */
const fakeMicrophone = () => {
  const original = navigator.mediaDevices.getUserMedia
  const context = new AudioContext()
  navigator.mediaDevices.getUserMedia = () => Promise.resolve(context.createMediaStreamDestination().stream)
  return () => {
    navigator.mediaDevices.getUserMedia = original
    void context.close()
  }
}

const button = (el: VoiceRecorder) => el.shadowRoot!.querySelector<HTMLButtonElement>("button")!
const dialog = (el: VoiceRecorder) => el.shadowRoot!.querySelector("dialog")!

describe("<voice-recorder>", () => {
  let restoreMicrophone: () => void = () => {}
  beforeEach(() => {
    restoreMicrophone = fakeMicrophone()
  })
  afterEach(() => restoreMicrophone())

  it("asks first where audio leaves the host; Escape (or Cancel) records nothing", async () => {
    const node = fakeNode({ "GET /api/twin/voice/stt": { json: status() } })
    const el = await fixture<VoiceRecorder>(html`<voice-recorder></voice-recorder>`)
    await expect(el).to.be.accessible()
    button(el).click()
    await until(() => dialog(el).open)
    expect(textOf(dialog(el))).to.contain("Your recording will leave this device for whisper-1 at stt.example")
    expect(textOf(dialog(el))).to.contain("about $0.006 a minute")
    expect(textOf(dialog(el))).to.contain("Audio is kept by the provider for 30 days.")
    expect(el.shadowRoot!.activeElement?.textContent).to.equal("Cancel")
    await expect(el).to.be.accessible()
    const closed = oneEvent(dialog(el), "close")
    await sendKeys({ press: "Escape" })
    await closed
    await el.updateComplete
    expect(button(el).textContent!.trim()).to.equal("Record a voice note")
    expect(node.to("POST /api/twin/voice/stt/consent")).to.have.length(0)
  })

  it("agreeing records, and Stop sends the recording and gives out the transcript", async () => {
    const node = fakeNode({
      "GET /api/twin/voice/stt": { json: status() },
      "POST /api/twin/voice/stt/consent": {
        json: status({ consented: true, consentedAt: "2026-01-01T00:00:00.000Z" })
      },
      "POST /api/twin/voice/transcribe": { json: transcript }
    })
    const el = await fixture<VoiceRecorder>(html`<voice-recorder language="en"></voice-recorder>`)
    button(el).click()
    await until(() => dialog(el).open)
    dialog(el).querySelector<HTMLButtonElement>('button[value="agree"]')!.click()
    expect((await node.request("POST /api/twin/voice/stt/consent")).body).to.deep.equal({
      consentKey: "remote|stt.example|whisper-1"
    })
    await until(() => button(el).getAttribute("aria-pressed") === "true")
    expect(button(el).textContent!.trim()).to.equal("Stop and transcribe")
    const given = oneEvent(el, "voice-transcript")
    button(el).click()
    const { detail } = await given
    expect(detail.transcript.text).to.equal("Buy oolong on Friday.")
    const sent = node.to("POST /api/twin/voice/transcribe")[0]!.body as FormData
    expect(sent.get("language")).to.equal("en")
    expect((sent.get("audio") as File).name).to.match(/^recording\.(webm|ogg|mp4)$/)
    await el.updateComplete
    expect(textOf(el)).to.contain("Transcribed by whisper-1 at stt.example (left this device).")
  })

  it("records at once when the audio stays on this host", async () => {
    fakeNode({
      "GET /api/twin/voice/stt": { json: status({ leavesDevice: false, provider: "local", requested: "local" }) }
    })
    const el = await fixture<VoiceRecorder>(html`<voice-recorder></voice-recorder>`)
    button(el).click()
    await until(() => button(el).getAttribute("aria-pressed") === "true")
    expect(dialog(el).open).to.equal(false)
  })

  it("says why when no model is set up, when the microphone is refused, and a refused transcription", async () => {
    fakeNode({
      "GET /api/twin/voice/stt": { json: status({ available: false, reason: "No transcribe tier is bound." }) }
    })
    const el = await fixture<VoiceRecorder>(html`<voice-recorder></voice-recorder>`)
    button(el).click()
    await until(() => textOf(el).includes("No transcribe tier is bound."))
    expect(el.shadowRoot!.querySelector("node-alert")!.kind).to.equal("error")

    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("denied", "NotAllowedError"))
    fakeNode({ "GET /api/twin/voice/stt": { json: status({ leavesDevice: false }) } })
    button(el).click()
    await until(() => textOf(el).includes("not allowed to use the microphone"))
    expect(textOf(el)).not.to.contain("No transcribe tier")

    restoreMicrophone()
    restoreMicrophone = fakeMicrophone()
    fakeNode({
      "GET /api/twin/voice/stt": { json: status({ leavesDevice: false }) },
      "POST /api/twin/voice/transcribe": refusal(403, "stt_consent_required", "Agree to the destination first.")
    })
    button(el).click()
    await until(() => button(el).getAttribute("aria-pressed") === "true")
    button(el).click()
    await until(() => textOf(el).includes("Agree to the destination first. Record again to see where it goes."))
  })
})
