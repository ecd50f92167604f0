/**
 * Settings → Your data: the owner's backups (settings-backups.ts), the export (one link: the browser downloads the
 * ZIP) and the import (files chosen, and what came in).
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import * as Schema from "effect/Schema"
import { ImportResult } from "../../../extensions/backups/imports/contract/records.ts"
import { ApiErrorBody } from "../../../kernel/contract/errors.ts"
import "../../components/node-alert.ts"
import "./settings-backups.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("settings-your-data")
export class SettingsYourData extends LitElement {
  /** Backups are the owner's; anyone signed in exports and imports their own data. */
  @property({ type: Boolean }) accessor owner = false

  @state() private accessor _imported: typeof ImportResult.Type | null = null
  @state() private accessor _importError = ""
  @state() private accessor _importing = false

  protected override render() {
    return html`
      ${this.owner ? html`<settings-backups></settings-backups>` : nothing}
      <section class="card" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p class="muted">
          Everything of yours in formats other programs read: notes as Markdown, your calendar as iCalendar, your
          threads, projects and ledger.
        </p>
        <div class="actions"><a class="button" href="/api/export.zip" download>Export my data</a></div>
      </section>
      <section class="card" aria-labelledby="import-title">
        <h2 id="import-title">Import</h2>
        <p class="muted">
          A calendar (.ics), Markdown or text notes, a zipped notes folder (an Obsidian vault) or a ChatGPT export.
        </p>
        <form @submit=${this._import}>
          <label>Files <input name="file" type="file" multiple required /></label>
          <div class="actions"><button type="submit" ?disabled=${this._importing}>Import</button></div>
        </form>
        <node-alert .message=${this._importError}></node-alert>
        ${this._imported === null ? nothing : this._renderImported(this._imported)}
      </section>
    `
  }

  private _renderImported(result: typeof ImportResult.Type) {
    const { events, todos, memories, threads } = result.imported
    return html`<div class="imported" role="status">
      <p>
        Imported ${events} events, ${todos} to-dos, ${memories} notes and ${threads} conversations${
          result.skipped > 0 ? `; ${result.skipped} already here` : ""
        }.
      </p>
      ${result.problems.length === 0 ? nothing : html`<ul class="problems">${result.problems.map((problem) => html`<li>${problem}</li>`)}</ul>`}
    </div>`
  }

  private readonly _import = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    this._importing = true
    this._importError = ""
    this._imported = null
    try {
      const response = await fetch("/api/twin/import", {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin"
      })
      const body: unknown = await response.json().catch(() => null)
      const result = Schema.decodeUnknownEither(ImportResult)(body)
      if (response.ok && result._tag === "Right") {
        this._imported = result.right
        form.reset()
      } else {
        const refusal = Schema.decodeUnknownEither(ApiErrorBody)(body)
        this._importError =
          refusal._tag === "Right" ? refusal.right.message : `The import was not taken (status ${response.status}).`
      }
    } catch {
      this._importError = "The node did not answer. Check that it is running, then try again."
    } finally {
      this._importing = false
    }
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-your-data": SettingsYourData
  }
}
