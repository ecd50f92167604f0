/**
 * How speech becomes text in /muse: the node's transcription (`<voice-recorder>`), or, where the
 * browser has one, its own speech recogniser (the Web Speech API). The choice is said plainly:
 * with the browser's recogniser the audio goes to the browser's vendor, not to this node. It is
 * remembered per being as the twin profile's preference `voiceInput` ("node" or "browser"). A
 * browser without the API is not offered it. The words come out as `voice-text`.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import "../../components/voice-recorder.ts"
import { fireEvent, type NodeEventMap } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** The twin preference that keeps the choice. */
export const voiceInputPreference = "voiceInput"
type VoiceInput = "node" | "browser"

/** The part of the Web Speech API used here (TypeScript's DOM library does not declare it). */
interface Recognition {
  lang: string
  interimResults: boolean
  maxAlternatives: number
  onresult: ((event: { readonly results: ArrayLike<ArrayLike<{ readonly transcript: string }>> }) => void) | null
  onerror: ((event: { readonly error: string }) => void) | null
  onend: (() => void) | null
  start(): void
  stop(): void
}
type RecognitionConstructor = new () => Recognition

const browserRecognition = (): RecognitionConstructor | null => {
  const scope = window as unknown as {
    SpeechRecognition?: RecognitionConstructor
    webkitSpeechRecognition?: RecognitionConstructor
  }
  return scope.SpeechRecognition ?? scope.webkitSpeechRecognition ?? null
}

const recogniserFailures: Readonly<Record<string, string>> = {
  "not-allowed": "The browser was not allowed to use the microphone. Allow it for this site, then try again.",
  network:
    "Your browser's recogniser could not reach its vendor's service. Try again online, or use this node's transcription.",
  "no-speech": "Nothing was heard. Try again, a little closer to the microphone.",
  "service-not-allowed": "Your browser does not allow its recogniser here. Use this node's transcription instead."
}

@customElement("muse-voice")
export class MuseVoice extends LitElement {
  @state() private accessor _choice: VoiceInput = "node"

  @state() private accessor _listening = false

  @state() private accessor _error = ""

  private readonly _Recognition = browserRecognition()

  private _recognition: Recognition | null = null

  override connectedCallback(): void {
    super.connectedCallback()
    if (this._Recognition !== null) void this._loadChoice()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this._recognition?.stop()
  }

  protected override render() {
    const recorder = html`<voice-recorder @voice-transcript=${this._onTranscript}></voice-recorder>`
    if (this._Recognition === null) return recorder
    return html`
      <fieldset>
        <legend>Turn your voice into text with</legend>
        <label><input type="radio" name="voice-input" value="node" .checked=${this._choice === "node"} @change=${this._onChoose} />
          This node's transcription</label>
        <label><input type="radio" name="voice-input" value="browser" .checked=${this._choice === "browser"} @change=${this._onChoose} />
          Your browser's recogniser</label>
        <p class="muted where">
          ${
            this._choice === "browser"
              ? "Your browser sends the audio to its vendor (Google, for Chrome) to turn it into text; this node never hears it."
              : "The audio goes to this node, which sends it to the transcription model its owner set up."
          }
        </p>
      </fieldset>
      ${
        this._choice === "node"
          ? recorder
          : html`<button type="button" class=${this._listening ? "danger" : ""} aria-pressed=${this._listening ? "true" : "false"} @click=${this._listen}>
            ${this._listening ? "Stop listening" : "Speak to your browser"}
          </button>`
      }
      ${this._error === "" ? nothing : html`<node-alert kind="error" .message=${this._error}></node-alert>`}
    `
  }

  private async _loadChoice(): Promise<void> {
    const profile = await request((client) => client.twin.getProfile())
    if (profile.ok) this._choice = profile.value.preferences[voiceInputPreference] === "browser" ? "browser" : "node"
  }

  private readonly _onChoose = async (event: Event): Promise<void> => {
    const choice: VoiceInput = (event.target as HTMLInputElement).value === "browser" ? "browser" : "node"
    this._choice = choice
    this._error = ""
    const saved = await request((client) =>
      client.twin.patchPreferences({ payload: { [voiceInputPreference]: choice } })
    )
    if (!saved.ok) this._error = `Your choice could not be kept: ${saved.failure.message}`
  }

  private readonly _onTranscript = (event: NodeEventMap["voice-transcript"]): void => {
    fireEvent(this, "voice-text", { text: event.detail.transcript.text })
  }

  private readonly _listen = (): void => {
    if (this._listening) {
      this._recognition?.stop()
      return
    }
    const Recognition = this._Recognition
    if (Recognition === null) return
    const recognition = new Recognition()
    recognition.lang = navigator.language
    recognition.interimResults = false
    recognition.maxAlternatives = 1
    recognition.onresult = (event) => {
      const text = Array.from(event.results, (result) => result[0]?.transcript ?? "")
        .join(" ")
        .trim()
      if (text !== "") fireEvent(this, "voice-text", { text })
    }
    recognition.onerror = (event) => {
      this._error = recogniserFailures[event.error] ?? `Your browser's recogniser stopped: ${event.error}.`
    }
    recognition.onend = () => {
      this._listening = false
      this._recognition = null
    }
    this._error = ""
    this._recognition = recognition
    this._listening = true
    recognition.start()
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: grid;
        gap: var(--node-space-2);
      }
      fieldset {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-1) var(--node-space-3);
        margin: 0;
        min-width: 0;
      }
      .where {
        flex-basis: 100%;
        margin: 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "muse-voice": MuseVoice
  }
}
