/** Forms, fields, buttons, badges and the focus ring every place shares (part of sharedStyles). */
import { css } from "lit"

export const controlStyles = css`
  form {
    display: grid;
    gap: var(--node-space-4);
    max-width: var(--node-form-max);
  }
  label {
    display: grid;
    gap: var(--node-space-1);
    font-size: var(--node-font-size-sm);
    font-weight: var(--node-font-weight-semibold);
  }
  [hidden] {
    display: none !important;
  }
  input,
  textarea,
  select {
    font: inherit;
    font-size: var(--node-font-size-md);
    font-weight: var(--node-font-weight-regular);
    color: var(--node-text);
    background: var(--node-surface);
    border: 1px solid var(--node-border-strong);
    border-radius: var(--node-radius-sm);
    padding: var(--node-space-2) var(--node-space-3);
    min-height: var(--node-control-height);
    width: 100%;
    transition: border-color var(--node-transition), box-shadow var(--node-transition);
  }
  input:hover,
  textarea:hover,
  select:hover {
    border-color: var(--node-muted);
  }
  input::placeholder,
  textarea::placeholder {
    color: var(--node-muted);
    opacity: 0.8;
  }
  textarea {
    min-height: 6rem;
    resize: vertical;
  }
  input[type="checkbox"] {
    width: 20px;
    height: 20px;
    min-height: 0;
    margin: 0;
    accent-color: var(--node-accent);
  }
  details > summary {
    cursor: pointer;
    font-weight: var(--node-font-weight-semibold);
    min-height: 32px;
    display: list-item;
  }
  .badge {
    display: inline-flex;
    align-items: center;
    font-size: var(--node-font-size-xs);
    font-weight: var(--node-font-weight-semibold);
    line-height: 1.7;
    border-radius: var(--node-radius-pill);
    padding: 0 var(--node-space-2);
    color: var(--node-muted);
    background: var(--node-surface-raised);
    white-space: nowrap;
    vertical-align: middle;
  }
  .badge[data-tone="active"] {
    color: var(--node-accent-soft-text);
    background: var(--node-accent-soft);
  }
  .badge[data-tone="good"] {
    color: var(--node-success);
    background: var(--node-success-bg);
  }
  .badge[data-tone="bad"] {
    color: var(--node-danger);
    background: var(--node-danger-bg);
  }
  button,
  .button {
    font: inherit;
    font-size: var(--node-font-size-sm);
    font-weight: var(--node-font-weight-semibold);
    cursor: pointer;
    border-radius: var(--node-radius-sm);
    border: 1px solid var(--node-accent);
    background: var(--node-accent);
    color: var(--node-accent-text);
    padding: var(--node-space-2) var(--node-space-4);
    min-height: var(--node-control-height);
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: var(--node-space-2);
    transition: background-color var(--node-transition), border-color var(--node-transition);
  }
  button:hover:not(:disabled),
  .button:hover {
    background: var(--node-accent-hover);
    border-color: var(--node-accent-hover);
    color: var(--node-accent-text);
  }
  button.secondary,
  .button.secondary {
    background: var(--node-surface);
    border-color: var(--node-border-strong);
    color: var(--node-text);
  }
  button.secondary:hover:not(:disabled),
  .button.secondary:hover {
    background: var(--node-surface-raised);
    border-color: var(--node-border-strong);
    color: var(--node-text);
  }
  button.danger {
    background: var(--node-surface);
    border-color: var(--node-border-strong);
    color: var(--node-danger);
  }
  button.danger:hover:not(:disabled) {
    background: var(--node-danger-bg);
    border-color: var(--node-danger);
    color: var(--node-danger);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  a:focus-visible,
  button:focus-visible,
  input:focus-visible,
  textarea:focus-visible,
  select:focus-visible,
  summary:focus-visible,
  [tabindex]:focus-visible {
    outline: 3px solid var(--node-focus);
    outline-offset: 2px;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: var(--node-space-2);
    align-items: center;
  }
`
