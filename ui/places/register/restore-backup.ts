/**
 * "Restore from a backup" on the register page of a node nobody owns yet: a backup file and its passphrase are sent
 * to `POST /api/setup/restore` (with the upload's progress); once the node has checked the backup it relaunches on
 * it, and this section waits for it to answer again (`GET /api/health` with a later `startedAt`), then asks the
 * restored owner to sign in. Shown only while the node offers a restore (`GET /api/setup/restore`).
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import * as Schema from "effect/Schema"
import { RestoreStarted } from "../../../extensions/backups/contract/records.ts"
import { ApiErrorBody } from "../../../kernel/contract/errors.ts"
import { request } from "../../api/client.ts"
import { fireEvent } from "../../shell/events.ts"
import "../../components/node-alert.ts"
import "../login/login-place.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** How often the page asks whether the node is back, and how long it waits before saying it is not. */
const POLL_MS = 500
const GIVE_UP_MS = 5 * 60 * 1000

type Phase =
  | { readonly _tag: "Form" }
  | { readonly _tag: "Uploading"; readonly sent: number; readonly total: number }
  | { readonly _tag: "Restarting" }
  | { readonly _tag: "Restored"; readonly handle: string | null }

/** The refusals a person can act on, in the web app's words; any other is told in the node's. */
const refusalWords: Record<string, string> = {
  wrong_passphrase: "That passphrase does not open this backup. Check it (letter case counts) and try again.",
  damaged_backup: "This backup is damaged: it does not pass its checks. Try another copy of it.",
  not_a_backup: "This file is not a backup of a node. Choose a file named backup-….tar.gz.age.",
  newer_backup_format: "This backup was made by a newer version of the node. Update this node, then restore.",
  owner_exists: "Someone has registered as this node's owner, so it no longer takes a restore.",
  no_file: "Choose the backup file to restore.",
  rate_limited: "Too many uploads. Wait a minute, then try again."
}

const decodeStarted = Schema.decodeUnknownOption(RestoreStarted)
const decodeRefusal = Schema.decodeUnknownOption(ApiErrorBody)

const startedAtOf = async (): Promise<string | null> => {
  try {
    const response = await fetch("/api/health", { cache: "no-store" })
    return response.ok ? ((await response.json()) as { startedAt: string }).startedAt : null
  } catch {
    return null
  }
}

const sizeText = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : `${Math.ceil(bytes / 1024 ** 2)} MB`

@customElement("restore-backup")
export class RestoreBackup extends LitElement {
  @state() private accessor _offered = false
  @state() private accessor _maxBytes = 0
  @state() private accessor _phase: Phase = { _tag: "Form" }
  @state() private accessor _error = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void request((client) => client.setupRestore.availability()).then((result) => {
      if (!result.ok) return
      this._offered = result.value.available
      this._maxBytes = result.value.maxBytes
    })
  }

  protected override render() {
    if (!this._offered) return nothing
    const phase = this._phase
    return html`<section class="card" aria-labelledby="restore-title">
      <h2 id="restore-title">Restore from a backup</h2>
      ${phase._tag === "Restored" ? this._renderRestored(phase.handle) : this._renderForm(phase)}
    </section>`
  }

  private _renderForm(phase: Phase) {
    const busy = phase._tag !== "Form"
    return html`<p class="muted">
        Moving to a new machine? Bring back everything a node held, from a backup made in Settings → Your data.
        This node has no owner yet; it restarts on the backup's data.
      </p>
      <form @submit=${this._submit}>
        <label>Backup file <input name="file" type="file" accept=".age" required ?disabled=${busy} /></label>
        <label
          >Passphrase
          <input name="passphrase" type="password" autocomplete="off" required ?disabled=${busy} />
        </label>
        ${this._maxBytes > 0 ? html`<span class="muted">At most ${sizeText(this._maxBytes)}.</span>` : nothing}
        <node-alert .message=${this._error}></node-alert>
        ${
          phase._tag === "Uploading"
            ? html`<p role="status">
                Uploading… <progress max=${phase.total} .value=${phase.sent}></progress>
              </p>`
            : phase._tag === "Restarting"
              ? html`<p role="status">Backup checked. The node is restarting on it… <progress></progress></p>`
              : nothing
        }
        <div class="actions">
          <button type="submit" ?disabled=${busy}>${busy ? "Restoring…" : "Restore"}</button>
        </div>
      </form>`
  }

  private _renderRestored(handle: string | null) {
    return html`<p role="status" class="restored">
        ${handle === null ? "Restored: sign in as the node's owner." : `Restored: sign in as ${handle}.`}
      </p>
      <login-place></login-place>`
  }

  /** Sends the form with the upload's progress; answers the status and body, or null when no answer came. */
  private _send(form: FormData) {
    return new Promise<{ status: number; body: unknown } | null>((resolve) => {
      const upload = new XMLHttpRequest()
      upload.open("POST", "/api/setup/restore")
      upload.upload.onprogress = (event) => {
        if (event.lengthComputable) this._phase = { _tag: "Uploading", sent: event.loaded, total: event.total }
      }
      upload.onload = () => {
        let body: unknown = null
        try {
          body = JSON.parse(upload.responseText)
        } catch {}
        resolve({ status: upload.status, body })
      }
      upload.onerror = () => resolve(null)
      upload.send(form)
    })
  }

  private readonly _submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    this._error = ""
    this._phase = { _tag: "Uploading", sent: 0, total: 1 }
    const before = await startedAtOf()
    const answer = await this._send(form)
    const started = answer === null ? null : decodeStarted(answer.body)
    if (answer === null || answer.status !== 202 || started === null || started._tag === "None") {
      this._phase = { _tag: "Form" }
      this._error = this._failureWords(answer)
      return
    }
    this._phase = { _tag: "Restarting" }
    const deadline = Date.now() + GIVE_UP_MS
    for (;;) {
      const now = await startedAtOf()
      if (now !== null && now !== before) break
      if (Date.now() > deadline) {
        this._phase = { _tag: "Form" }
        this._error = "The node has not come back yet. Its log says why; reload this page in a minute."
        return
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
    this._phase = { _tag: "Restored", handle: started.value.ownerHandle }
    fireEvent(this, "backup-restored", { ownerHandle: started.value.ownerHandle })
  }

  private _failureWords(answer: { status: number; body: unknown } | null): string {
    if (answer === null)
      return "The upload was cut off: the node did not answer. Check that it is running, then try again."
    if (answer.status === 413)
      return `This backup is larger than this node takes (at most ${sizeText(this._maxBytes)}): raise MAX_RESTORE_BYTES, or use npm run restore.`
    const refusal = decodeRefusal(answer.body)
    if (refusal._tag === "None") return `The restore was not taken (status ${answer.status}).`
    return refusalWords[refusal.value.error] ?? refusal.value.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "restore-backup": RestoreBackup
  }
}
