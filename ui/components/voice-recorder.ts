/**
 * `<voice-recorder>`: a microphone button that records with the browser's MediaRecorder and sends
 * the recording to `POST /api/twin/voice/transcribe`, for any place that takes speech (the Muse's
 * composer). Before audio leaves the host the person is shown where it goes (the destination,
 * that it leaves this device, what a minute costs) in a modal dialog and agrees or not; a
 * destination that moved since asks again. The transcript is sent out as `voice-transcript`.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import * as Schema from "effect/Schema"
import type { NodeSttStatus } from "../../extensions/twin/voice/contract/records.ts"
import { NodeTranscript } from "../../extensions/twin/voice/contract/records.ts"
import { request } from "../api/client.ts"
import { fireEvent } from "../shell/events.ts"
import { dialogStyles } from "../styles/dialog-styles.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import "./node-alert.ts"

type Phase = "idle" | "checking" | "consent" | "recording" | "sending"

/** The refusals that mean "agree to the current destination first". */
const consentCodes: ReadonlySet<string> = new Set(["stt_consent_required", "stt_destination_changed"])

const ApiErrorBody = Schema.Struct({ error: Schema.String, message: Schema.String })

/** What the node answered a transcription with: the transcript, or its refusal in words. */
const readAnswer = async (
  response: Response
): Promise<{ transcript: NodeTranscript } | { code: string; message: string }> => {
  const body: unknown = await response.json().catch(() => null)
  if (response.ok) {
    const transcript = Schema.decodeUnknownEither(NodeTranscript)(body)
    if (transcript._tag === "Right") return { transcript: transcript.right }
  }
  const refusal = Schema.decodeUnknownEither(ApiErrorBody)(body)
  return refusal._tag === "Right"
    ? { code: refusal.right.error, message: refusal.right.message }
    : { code: "unexpected_answer", message: `The node could not transcribe the recording (status ${response.status}).` }
}

const perMinute = (usd: number) => (usd === 0 ? "no charge" : `about $${usd.toFixed(3)} a minute`)

@customElement("voice-recorder")
export class VoiceRecorder extends LitElement {
  /** The spoken language ("en"), when the place knows it; the model detects it otherwise. */
  @property() accessor language = ""

  @state() private accessor _phase: Phase = "idle"

  @state() private accessor _status: NodeSttStatus | null = null

  @state() private accessor _error = ""

  @state() private accessor _transcript: NodeTranscript | null = null

  @query("dialog") private accessor _dialog!: HTMLDialogElement

  private _recorder: MediaRecorder | null = null

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this._stopTracks()
  }

  protected override render() {
    const recording = this._phase === "recording"
    const busy = this._phase === "checking" || this._phase === "sending"
    return html`
      <button
        class=${recording ? "danger" : ""}
        aria-pressed=${recording ? "true" : "false"}
        ?disabled=${busy}
        @click=${recording ? this._stop : this._start}
      >
        ${recording ? "Stop and transcribe" : busy ? (this._phase === "sending" ? "Transcribing…" : "Checking…") : "Record a voice note"}
      </button>
      ${this._error === "" ? nothing : html`<node-alert kind="error" .message=${this._error}></node-alert>`}
      ${
        this._transcript === null
          ? nothing
          : html`<p class="transcript" aria-live="polite">
            <span class="text">${this._transcript.text}</span>
            <small class="where">Transcribed by ${this._transcript.destination}${this._transcript.leavesDevice ? " (left this device)" : " (on this host)"}.</small>
          </p>`
      }
      ${this._renderDialog()}
    `
  }

  private _renderDialog() {
    const status = this._status
    return html`<dialog aria-labelledby="voice-consent-title" @close=${this._onDialogClose}>
      <h2 id="voice-consent-title">Send your recording off this device?</h2>
      ${
        status === null
          ? nothing
          : html`<p class="destination">Your recording will leave this device for <strong>${status.destination}</strong>.</p>
            <p class="cost">${status.costsMoney ? `It costs ${perMinute(status.usdPerMinute)} of audio.` : "It is not charged by the minute."}</p>
            ${status.note === null ? nothing : html`<p class="note">${status.note}</p>`}`
      }
      <form method="dialog" class="actions">
        <button class="secondary" value="cancel" autofocus>Cancel</button>
        <button value="agree">Agree and record</button>
      </form>
    </dialog>`
  }

  /** Checks where audio would go, asks for consent when it leaves the host, then records. */
  private readonly _start = async (): Promise<void> => {
    this._error = ""
    this._transcript = null
    this._phase = "checking"
    const status = await request((client) => client.voice.stt())
    if (!status.ok) return this._fail(status.failure.message)
    this._status = status.value
    if (!status.value.available)
      return this._fail(status.value.reason ?? "No transcription model is set up on this node.")
    if (status.value.leavesDevice && !status.value.consented) return this._askConsent()
    await this._record()
  }

  private async _askConsent(): Promise<void> {
    this._phase = "consent"
    await this.updateComplete
    this._dialog.returnValue = ""
    if (!this._dialog.open) this._dialog.showModal()
  }

  private readonly _onDialogClose = async (): Promise<void> => {
    if (this._phase !== "consent") return
    if (this._dialog.returnValue !== "agree" || this._status === null) {
      this._phase = "idle"
      return
    }
    this._phase = "checking"
    const consentKey = this._status.consentKey
    const agreed = await request((client) => client.voice.consent({ payload: { consentKey } }))
    // The destination moved while the dialog was open: show the new one and ask again.
    if (!agreed.ok && agreed.failure.code === "stt_destination_changed") return this._start()
    if (!agreed.ok) return this._fail(agreed.failure.message)
    this._status = agreed.value
    await this._record()
  }

  private async _record(): Promise<void> {
    if (typeof MediaRecorder === "undefined" || navigator.mediaDevices?.getUserMedia === undefined) {
      return this._fail("This browser cannot record audio.")
    }
    let stream: MediaStream
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true })
    } catch {
      return this._fail("The browser was not allowed to use the microphone. Allow it for this site, then try again.")
    }
    const mimeType = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/mp4"].find((type) =>
      MediaRecorder.isTypeSupported(type)
    )
    const recorder = new MediaRecorder(stream, mimeType === undefined ? {} : { mimeType })
    const chunks: Array<Blob> = []
    recorder.addEventListener("dataavailable", (event) => {
      if (event.data.size > 0) chunks.push(event.data)
    })
    recorder.addEventListener("stop", () => {
      this._stopTracks()
      void this._send(new Blob(chunks, { type: recorder.mimeType }))
    })
    this._recorder = recorder
    recorder.start()
    this._phase = "recording"
  }

  private readonly _stop = (): void => {
    this._phase = "sending"
    this._recorder?.stop()
  }

  private _stopTracks(): void {
    for (const track of this._recorder?.stream.getTracks() ?? []) track.stop()
  }

  private async _send(audio: Blob): Promise<void> {
    this._recorder = null
    const extension = audio.type.includes("ogg") ? "ogg" : audio.type.includes("mp4") ? "mp4" : "webm"
    const form = new FormData()
    form.append("audio", audio, `recording.${extension}`)
    if (this.language !== "") form.append("language", this.language)
    let response: Response
    try {
      response = await fetch("/api/twin/voice/transcribe", { method: "POST", body: form, credentials: "same-origin" })
    } catch {
      return this._fail("The node did not answer. Check that it is running and that you are online, then try again.")
    }
    const answer = await readAnswer(response)
    if ("transcript" in answer) {
      this._transcript = answer.transcript
      this._phase = "idle"
      fireEvent(this, "voice-transcript", { transcript: answer.transcript })
      return
    }
    this._fail(consentCodes.has(answer.code) ? `${answer.message} Record again to see where it goes.` : answer.message)
  }

  private _fail(message: string): void {
    this._error = message
    this._phase = "idle"
  }

  static override styles = [
    sharedStyles,
    dialogStyles,
    css`
      :host {
        display: block;
      }
      .transcript {
        display: grid;
        gap: 4px;
      }
      .where {
        color: var(--node-muted);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "voice-recorder": VoiceRecorder
  }
}
