/**
 * The owner's backups in Settings → Your data: make one with a passphrase, the list with size and counts, download,
 * verify (asking the passphrase), delete, and the schedule's state.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { Backup, BackupVerification } from "../../../extensions/backups/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { formatSize } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const countsLine = (backup: Backup) =>
  `${backup.counts.memories} memories, ${backup.counts.events} events, ${backup.counts.todos} to-dos, ` +
  `${backup.counts.messages} messages, ${backup.counts.files} files`

@customElement("settings-backups")
export class SettingsBackups extends LitElement {
  private readonly _backups = new ApiResource(this, (client) => client.backups.list())
  private readonly _schedule = new ApiResource(this, (client) => client.backups.schedule())
  private readonly _action = new ApiAction(this)

  @state() private accessor _verification: { id: string; result: BackupVerification } | null = null

  protected override render() {
    return this._renderBackups()
  }

  private _renderBackups() {
    const busy = this._action.busy
    return html`<section class="card" aria-labelledby="backups-title">
      <h2 id="backups-title">Backups</h2>
      <p class="muted">
        The whole node (database, files, plugins and the key of stored secrets), encrypted to a passphrase. Keep the
        passphrase: without it a backup cannot be opened.
      </p>
      <node-alert .message=${this._action.error || this._backups.error}></node-alert>
      <node-alert kind="success" .message=${this._action.notice}></node-alert>
      <form @submit=${this._create}>
        <label>Passphrase <input name="passphrase" type="password" minlength="12" required autocomplete="new-password" /></label>
        <div class="actions"><button type="submit" ?disabled=${busy}>Make a backup</button></div>
      </form>
      ${this._schedule.render("", (schedule) =>
        schedule.everyHours === null
          ? html`<p class="muted schedule">No scheduled backups (BACKUP_EVERY_HOURS is unset).</p>`
          : html`<p class="muted schedule">
              Every ${schedule.everyHours} hours, keeping ${schedule.keep}.
              ${schedule.lastRunAt === null ? "" : `Last run ${formatDateTime(schedule.lastRunAt)}.`}
              ${schedule.lastError === null ? "" : `It failed: ${schedule.lastError}`}
            </p>`
      )}
      ${this._backups.render("Loading backups…", (backups) => this._renderList(backups))}
    </section>`
  }

  private _renderList(backups: ReadonlyArray<Backup>) {
    if (backups.length === 0) return html`<p class="muted">No backups yet.</p>`
    return dataTable(
      ["Made", "Size", "Holds", actionHeading],
      backups.map(
        (backup) => html`<tr class="backup">
          <td>${formatDateTime(backup.createdAt)}</td>
          <td>${formatSize(backup.bytes)}</td>
          <td>
            ${countsLine(backup)}
            ${
              this._verification?.id === backup.id
                ? html`<div class="verification">
                    ${
                      this._verification.result.ok
                        ? "Verified: it opens and every part is whole."
                        : `Not whole: ${this._verification.result.problems.join("; ")}`
                    }
                  </div>`
                : nothing
            }
          </td>
          <td>
            <a class="button secondary" href=${`/api/backups/${backup.id}/download`} download>Download</a>
            <button class="secondary" type="button" ?disabled=${this._action.busy} @click=${() => this._verify(backup.id)}>Verify</button>
            <button class="danger" type="button" ?disabled=${this._action.busy} @click=${() => this._remove(backup.id)}>Delete</button>
          </td>
        </tr>`
      )
    )
  }

  private readonly _create = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const passphrase = String(new FormData(form).get("passphrase") ?? "")
    await this._action.run(
      (client) => client.backups.create({ payload: { passphrase } }),
      (backup) => {
        form.reset()
        return `Backup made: ${formatSize(backup.bytes)}.`
      }
    )
    await this._backups.reload()
  }

  private async _verify(id: string): Promise<void> {
    const passphrase = window.prompt("The backup's passphrase")
    if (passphrase === null) return
    await this._action.run(
      (client) => client.backups.verify({ path: { id }, payload: { passphrase } }),
      (result) => {
        this._verification = { id, result }
        return undefined
      }
    )
  }

  private async _remove(id: string): Promise<void> {
    await this._action.run(
      (client) => client.backups.remove({ path: { id } }),
      () => "The backup is deleted."
    )
    await this._backups.reload()
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-backups": SettingsBackups
  }
}
