/**
 * `<schema-form>`: a form drawn from a JSON Schema (a generator's `inputsSchema`; schema-fields.ts
 * reads it). Each property is a labelled control: a string an input, `x-multiline` a textarea, a
 * number or integer a number input with its bounds, a boolean a checkbox, an enum a select. The
 * title is the label, the description and the limits are the help (tied with aria-describedby),
 * `x-placeholder` the placeholder, and required fields are marked and `required`. The browser
 * checks minLength, maxLength, minimum and maximum before anything is sent. `x-advanced` fields
 * are folded under an "Advanced" disclosure, which opens by itself when one of its fields stops
 * the submit; an `x-showWhen` field shows while its boolean field is checked (hidden, its control
 * is disabled: the browser skips it and its value is not sent, but what was typed stays).
 *
 * `values` (an earlier run's inputs) fill the controls instead of the schema's defaults.
 *
 * On a valid submit it sends `schema-form-submit` with the values typed as the schema says; the
 * element that holds it does the sending and says what the node answered.
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { ifDefined } from "lit/directives/if-defined.js"
import { keyed } from "lit/directives/keyed.js"
import { fireEvent } from "../shell/events.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import {
  type BooleanField,
  type ChoiceField,
  fieldsOf,
  type FormField,
  withValues,
  initialSwitches,
  isShown,
  limitsInWords,
  type NumberField,
  type TextField,
  valuesOf
} from "./schema-fields.ts"

const requiredMark = html`<span class="required" aria-hidden="true">*</span>`

@customElement("schema-form")
export class SchemaForm extends LitElement {
  /** The JSON Schema of the form (an object schema with `properties`). */
  @property({ attribute: false }) accessor schema: unknown = null

  /** What the controls show first instead of the schema's defaults; null for the defaults. */
  @property({ attribute: false }) accessor values: Readonly<Record<string, unknown>> | null = null

  @property() accessor submitLabel = "Submit"

  /** While the values are on their way: the submit button is disabled. */
  @property({ type: Boolean }) accessor busy = false

  /** The current value of each boolean field, which `x-showWhen` reads. */
  @state() private accessor _switches: ReadonlyMap<string, boolean> = new Map()

  private _fields: ReadonlyArray<FormField> = []

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("schema") || changed.has("values")) {
      const fields = fieldsOf(this.schema)
      this._fields = this.values === null ? fields : withValues(fields, this.values)
      this._switches = initialSwitches(this._fields)
    }
  }

  protected override render() {
    const basic = this._fields.filter((field) => !field.advanced)
    const advanced = this._fields.filter((field) => field.advanced)
    const marksRequired = this._fields.some((field) => field.required && field.kind !== "boolean")
    // A new schema or new values get new controls: the browser keeps what was typed in a control it reuses.
    return keyed(
      this._fields,
      html`<form @submit=${this._submit} @invalid=${this._onInvalid}>
        ${marksRequired ? html`<p class="muted legend">Fields marked ${requiredMark}<span class="sr-only">with a star</span> are required.</p>` : nothing}
        ${basic.map((field) => this._renderField(field))}
        ${
          advanced.length === 0
            ? nothing
            : html`<details class="advanced">
              <summary>Advanced</summary>
              <div class="advanced-fields">${advanced.map((field) => this._renderField(field))}</div>
            </details>`
        }
        <div class="actions">
          <button type="submit" ?disabled=${this.busy}>${this.submitLabel}</button>
          <slot name="actions"></slot>
        </div>
      </form>`
    )
  }

  private _renderField(field: FormField) {
    const shown = isShown(field, this._fields, this._switches)
    switch (field.kind) {
      case "text":
      case "multiline":
        return this._renderText(field, shown)
      case "number":
        return this._renderNumber(field, shown)
      case "boolean":
        return this._renderBoolean(field, shown)
      case "choice":
        return this._renderChoice(field, shown)
      case "unsupported":
        return html`<p class="muted unsupported" ?hidden=${!shown}>
          “${field.label}” takes ${field.type === "array" ? "a list" : field.type === "object" ? "a group of values" : `a value of type ${field.type}`},
          which this form cannot fill in; it is left out.
        </p>`
    }
  }

  /** The help under a field: its description and the limits the browser checks, in words. */
  private _help(field: FormField) {
    const words = [field.help.trim(), limitsInWords(field)].filter((part) => part !== "").join(" ")
    return words === ""
      ? { id: undefined, html: nothing }
      : { id: `help-${field.name}`, html: html`<p class="help" id=${`help-${field.name}`}>${words}</p>` }
  }

  private _label(field: FormField) {
    return html`<label for=${`field-${field.name}`}>${field.label} ${field.required ? requiredMark : nothing}</label>`
  }

  private _renderText(field: TextField, shown: boolean) {
    const help = this._help(field)
    const common = {
      id: `field-${field.name}`,
      minLength: field.minLength ?? undefined,
      maxLength: field.maxLength ?? undefined,
      placeholder: field.placeholder === "" ? undefined : field.placeholder
    }
    return html`<div class="field" ?hidden=${!shown} data-field=${field.name}>
      ${this._label(field)}
      ${
        field.kind === "multiline"
          ? html`<textarea
            id=${common.id}
            name=${field.name}
            rows="5"
            minlength=${ifDefined(common.minLength)}
            maxlength=${ifDefined(common.maxLength)}
            placeholder=${ifDefined(common.placeholder)}
            aria-describedby=${ifDefined(help.id)}
            ?required=${field.required}
            ?disabled=${!shown}
            .defaultValue=${field.initial}
          ></textarea>`
          : html`<input
            id=${common.id}
            name=${field.name}
            type="text"
            minlength=${ifDefined(common.minLength)}
            maxlength=${ifDefined(common.maxLength)}
            placeholder=${ifDefined(common.placeholder)}
            aria-describedby=${ifDefined(help.id)}
            ?required=${field.required}
            ?disabled=${!shown}
            value=${field.initial}
          />`
      }
      ${help.html}
    </div>`
  }

  private _renderNumber(field: NumberField, shown: boolean) {
    const help = this._help(field)
    return html`<div class="field" ?hidden=${!shown} data-field=${field.name}>
      ${this._label(field)}
      <input
        id=${`field-${field.name}`}
        name=${field.name}
        type="number"
        inputmode=${field.integer ? "numeric" : "decimal"}
        min=${ifDefined(field.min ?? undefined)}
        max=${ifDefined(field.max ?? undefined)}
        step=${field.step}
        placeholder=${ifDefined(field.placeholder === "" ? undefined : field.placeholder)}
        aria-describedby=${ifDefined(help.id)}
        ?required=${field.required}
        ?disabled=${!shown}
        value=${field.initial === null ? "" : String(field.initial)}
      />
      ${help.html}
    </div>`
  }

  private _renderBoolean(field: BooleanField, shown: boolean) {
    const help = this._help(field)
    return html`<div class="field check" ?hidden=${!shown} data-field=${field.name}>
      <input
        id=${`field-${field.name}`}
        name=${field.name}
        type="checkbox"
        aria-describedby=${ifDefined(help.id)}
        ?required=${field.required}
        ?disabled=${!shown}
        ?checked=${field.initial}
        @change=${(event: Event) => this._setSwitch(field.name, (event.target as HTMLInputElement).checked)}
      />
      ${this._label(field)} ${help.html}
    </div>`
  }

  private _renderChoice(field: ChoiceField, shown: boolean) {
    const help = this._help(field)
    return html`<div class="field" ?hidden=${!shown} data-field=${field.name}>
      ${this._label(field)}
      <select
        id=${`field-${field.name}`}
        name=${field.name}
        aria-describedby=${ifDefined(help.id)}
        ?required=${field.required}
        ?disabled=${!shown}
      >
        ${
          field.initial === null || !field.required
            ? html`<option value="" ?selected=${field.initial === null}>${field.required ? "Choose…" : "(none)"}</option>`
            : nothing
        }
        ${field.options.map(
          (option, index) =>
            html`<option value=${String(index)} ?selected=${index === field.initial}>${option.label}</option>`
        )}
      </select>
      ${help.html}
    </div>`
  }

  private _setSwitch(name: string, checked: boolean): void {
    this._switches = new Map([...this._switches, [name, checked]])
  }

  /**
   * `invalid` does not bubble, so the form listens in the capture phase: a field that stops the
   * submit from inside the closed Advanced area opens it, or the browser could not show it.
   */
  private readonly _onInvalid = {
    capture: true,
    handleEvent: (event: Event): void => {
      const details = (event.target as Element).closest("details")
      if (details !== null && !details.open) details.open = true
    }
  }

  private _submit(event: SubmitEvent): void {
    event.preventDefault()
    fireEvent(this, "schema-form-submit", { values: valuesOf(this._fields, event.currentTarget as HTMLFormElement) })
  }

  static override styles = [
    sharedStyles,
    css`
      form {
        max-width: 40rem;
        gap: 16px;
      }
      .field {
        display: grid;
        gap: 4px;
      }
      .field label {
        display: block;
      }
      .field.check {
        grid-template-columns: auto minmax(0, 1fr);
        align-items: center;
        column-gap: 10px;
      }
      .field.check .help {
        grid-column: 2;
      }
      .help,
      .legend,
      .unsupported {
        margin: 0;
        font-size: 0.9rem;
      }
      .help {
        color: var(--node-muted);
      }
      .required {
        color: var(--node-danger);
      }
      .advanced-fields {
        display: grid;
        gap: 16px;
        padding: 12px 0 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "schema-form": SchemaForm
  }
}
