/**
 * A modal `<dialog>` that asks one thing (confirm-dialog, the voice recorder's consent): framed, over a dimmed page.
 */
import { css } from "lit"

export const dialogStyles = css`
  dialog {
    max-width: min(28rem, calc(100vw - 32px));
    border: 1px solid var(--node-border);
    border-radius: var(--node-radius);
    background: var(--node-surface);
    color: var(--node-text);
    padding: var(--node-gap);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.4);
  }
  dialog h2 {
    margin-top: 0;
  }
`
