/**
 * A message for the person, in a live region that exists before it has anything to say (so
 * screen readers announce it when it fills): errors as `role="alert"`, the rest as `status`.
 * Empty message, nothing shown.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import { mdiAlertCircleOutline, mdiCheckCircleOutline, mdiInformationOutline } from "@mdi/js"
import { icon } from "./icon.ts"

export type AlertKind = "error" | "success" | "info"

const icons: Record<AlertKind, string> = {
  error: mdiAlertCircleOutline,
  success: mdiCheckCircleOutline,
  info: mdiInformationOutline
}

@customElement("node-alert")
export class NodeAlert extends LitElement {
  @property() accessor kind: AlertKind = "error"

  @property() accessor message = ""

  protected override render() {
    return html`<div class="alert ${this.kind}" role=${this.kind === "error" ? "alert" : "status"} aria-live=${
      this.kind === "error" ? "assertive" : "polite"
    }>${this.message === "" ? nothing : html`${icon(icons[this.kind])}<div class="words"><p>${this.message}</p><slot></slot></div>`}</div>`
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
      display: flex;
      align-items: flex-start;
      gap: var(--node-space-2);
      border-radius: var(--node-radius-sm);
      padding: var(--node-space-3);
      margin: 0 0 var(--node-space-3);
      border: 1px solid var(--node-border);
      border-left-width: 4px;
      background: var(--node-surface-raised);
      color: var(--node-text);
      font-size: var(--node-font-size-sm);
    }
    svg.icon {
      width: var(--node-icon-size);
      height: var(--node-icon-size);
      fill: currentColor;
      flex: none;
      color: var(--node-muted);
    }
    .words {
      min-width: 0;
      overflow-wrap: anywhere;
      padding-top: 1px;
    }
    .error {
      border-color: var(--node-danger);
      background: var(--node-danger-bg);
    }
    .error svg.icon {
      color: var(--node-danger);
    }
    .success {
      border-color: var(--node-success);
      background: var(--node-success-bg);
    }
    .success svg.icon {
      color: var(--node-success);
    }
    .info {
      border-color: var(--node-accent);
      background: var(--node-accent-soft);
    }
    .info svg.icon {
      color: var(--node-accent);
    }
  `
}

declare global {
  interface HTMLElementTagNameMap {
    "node-alert": NodeAlert
  }
}
