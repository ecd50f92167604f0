/**
 * A message for the person, in a live region that exists before it has anything to say (so
 * screen readers announce it when it fills): errors as `role="alert"`, the rest as `status`.
 * Empty message, nothing shown.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"

export type AlertKind = "error" | "success" | "info"

@customElement("node-alert")
export class NodeAlert extends LitElement {
  @property() accessor kind: AlertKind = "error"

  @property() accessor message = ""

  protected override render() {
    return html`<div class="alert ${this.kind}" role=${this.kind === "error" ? "alert" : "status"} aria-live=${
      this.kind === "error" ? "assertive" : "polite"
    }>${this.message === "" ? nothing : html`<p>${this.message}</p><slot></slot>`}</div>`
  }

  static override styles = css`
    :host {
      display: block;
    }
    p {
      margin: 0;
    }
    .alert:empty {
      display: none;
    }
    .alert {
      border-radius: 6px;
      padding: 10px 12px;
      margin: 0 0 12px;
      border: 1px solid var(--node-border);
      background: var(--node-surface-raised);
    }
    .error {
      border-color: var(--node-danger);
      background: var(--node-danger-bg);
      color: var(--node-text);
    }
    .success {
      border-color: var(--node-success);
      background: var(--node-success-bg);
    }
  `
}

declare global {
  interface HTMLElementTagNameMap {
    "node-alert": NodeAlert
  }
}
