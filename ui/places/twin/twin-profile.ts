/**
 * The twin's profile: facts, goals and routines (one a line), tone and time zone, saved with a
 * partial PATCH of the sections that changed; and preferences as key and value, each set or
 * removed on its own (removing sends the key as null).
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { Profile, ProfilePatch } from "../../../extensions/twin/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"

const lists = [
  ["facts", "Facts about you", "One a line: “I live in Lyon”."],
  ["goals", "Goals", "One a line: “Run a half marathon in spring”."],
  ["routines", "Routines", "One a line: “Gym on Tuesday evenings”."]
] as const

const linesOf = (text: string): ReadonlyArray<string> =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean =>
  a.length === b.length && a.every((item, index) => item === b[index])

/** A preference's value as typed: JSON when it reads as JSON (a number, true, a list), else the text itself. */
const preferenceValue = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const timeZones = (): ReadonlyArray<string> => {
  try {
    return Intl.supportedValuesOf("timeZone")
  } catch {
    return []
  }
}

@customElement("twin-profile")
export class TwinProfile extends LitElement {
  private readonly _profile = new ApiResource(this, (client) => client.twin.getProfile())

  private readonly _saving = new ApiAction(this)

  private readonly _preferences = new ApiAction(this)

  protected override render() {
    return html`<div class="split even">
      <section class="card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <p class="muted">What the twin keeps in mind about you. Only what you change is sent.</p>
        <node-alert .message=${this._saving.error || this._profile.error}></node-alert>
        <node-alert kind="success" .message=${this._saving.notice}></node-alert>
        ${this._profile.render("Loading the profile…", (profile) => this._renderForm(profile))}
      </section>
      <section class="card" aria-labelledby="preferences-title">
        <h2 id="preferences-title">Preferences</h2>
        <node-alert .message=${this._preferences.error}></node-alert>
        <node-alert kind="success" .message=${this._preferences.notice}></node-alert>
        ${this._profile.render("", (profile) => this._renderPreferences(profile))}
      </section>
    </div>`
  }

  private _renderForm(profile: Profile) {
    return html`<form @submit=${this._save}>
      ${lists.map(
        ([name, label, help]) => html`<div class="field">
          <label>${label} <textarea name=${name} rows="3" aria-describedby=${`${name}-help`} .value=${profile[name].join("\n")}></textarea></label>
          <span class="help muted" id=${`${name}-help`}>${help}</span>
        </div>`
      )}
      <label>Tone <input name="tone" maxlength="200" .value=${profile.tone} placeholder="Warm and brief" /></label>
      <div class="field">
        <label>Time zone <input name="timezone" list="time-zones" .value=${profile.timezone} autocomplete="off" aria-describedby="timezone-help" /></label>
        <span class="help muted" id="timezone-help">Quiet hours follow it. Such as Europe/Paris or UTC.</span>
      </div>
      <datalist id="time-zones">${timeZones().map((zone) => html`<option value=${zone}></option>`)}</datalist>
      <div class="actions"><button type="submit" ?disabled=${this._saving.busy}>Save the profile</button></div>
    </form>`
  }

  private _renderPreferences(profile: Profile) {
    const entries = Object.entries(profile.preferences)
    return html`
      ${
        entries.length === 0
          ? html`<p class="muted">No preferences yet.</p>`
          : html`<ul class="records preferences">
            ${entries.map(
              ([key, value]) => html`<li>
                <span class="key"><code>${key}</code></span>
                <span class="value">${typeof value === "string" ? value : JSON.stringify(value)}</span>
                <button class="danger" type="button" aria-label=${`Remove the preference ${key}`} ?disabled=${this._preferences.busy} @click=${() => this._remove(key)}>
                  Remove
                </button>
              </li>`
            )}
          </ul>`
      }
      <form class="inline" @submit=${this._setPreference}>
        <label>Name <input name="key" required maxlength="64" pattern="[A-Za-z0-9_.:\\-]{1,64}" placeholder="coffee" /></label>
        <label>Value <input name="value" required placeholder="oat flat white" /></label>
        <div class="actions"><button type="submit" class="secondary" ?disabled=${this._preferences.busy}>Set the preference</button></div>
      </form>
    `
  }

  private readonly _save = onSubmit(async ({ field }) => {
    const profile = this._profile.value
    if (profile === null) return
    const patch: { -readonly [K in keyof ProfilePatch]: ProfilePatch[K] } = {}
    for (const [name] of lists) {
      const lines = linesOf(field(name))
      if (!sameList(lines, profile[name])) patch[name] = lines
    }
    if (field("tone").trim() !== profile.tone) patch.tone = field("tone").trim()
    if (field("timezone").trim() !== profile.timezone) patch.timezone = field("timezone").trim()
    if (Object.keys(patch).length === 0) return this._saving.fail("Nothing changed: there is nothing to save.")
    await this._saving.run(
      (client) => client.twin.patchProfile({ payload: patch }),
      (saved) => {
        this._profile.replace(saved)
        return "The profile is saved."
      }
    )
  })

  private readonly _setPreference = onSubmit(async ({ field, clear }) => {
    const key = field("key").trim()
    const set = await this._preferences.run(
      (client) => client.twin.patchPreferences({ payload: { [key]: preferenceValue(field("value")) as never } }),
      (saved) => {
        this._profile.replace(saved)
        return `The preference ${key} is set.`
      }
    )
    if (set) clear()
  })

  private _remove(key: string): Promise<boolean> {
    return this._preferences.run(
      (client) => client.twin.patchPreferences({ payload: { [key]: null } }),
      (saved) => {
        this._profile.replace(saved)
        return `The preference ${key} is removed.`
      }
    )
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    recordListStyles,
    css`
      .preferences li {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-2) var(--node-space-3);
      }
      .value {
        flex: 1 1 8rem;
        overflow-wrap: anywhere;
      }
      .field {
        display: grid;
        gap: var(--node-space-1);
      }
      .help {
        font-size: var(--node-font-size-sm);
      }
      form.inline {
        margin-top: var(--node-space-4);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-profile": TwinProfile
  }
}
