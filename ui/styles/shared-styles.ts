/**
 * Styles every place shares: headings, cards, forms, buttons, tables and the focus ring.
 * Components list it first in their `static styles`.
 */
import { css } from "lit"

export const sharedStyles = css`
  :host {
    display: block;
    box-sizing: border-box;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  h1 {
    font-size: 1.6rem;
    margin: 0 0 var(--node-gap);
  }
  h2 {
    font-size: 1.15rem;
    margin: 0 0 12px;
  }
  p {
    margin: 0 0 12px;
  }
  a {
    color: var(--node-accent);
  }
  .card {
    background: var(--node-surface);
    border: 1px solid var(--node-border);
    border-radius: var(--node-radius);
    padding: var(--node-gap);
    margin: 0 0 var(--node-gap);
  }
  .muted {
    color: var(--node-muted);
  }
  form {
    display: grid;
    gap: 12px;
    max-width: 28rem;
  }
  label {
    display: grid;
    gap: 4px;
    font-weight: 600;
  }
  [hidden] {
    display: none !important;
  }
  input,
  textarea,
  select {
    font: inherit;
    font-weight: 400;
    color: var(--node-text);
    background: var(--node-bg);
    border: 1px solid var(--node-border);
    border-radius: 6px;
    padding: 8px 10px;
    min-height: 40px;
    width: 100%;
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
    font-weight: 600;
    min-height: 32px;
    display: list-item;
  }
  .badge {
    display: inline-block;
    font-size: 0.8rem;
    font-weight: 600;
    line-height: 1.6;
    border: 1px solid var(--node-border);
    border-radius: 999px;
    padding: 0 8px;
    color: var(--node-muted);
    white-space: nowrap;
  }
  .badge[data-tone="active"] {
    border-color: var(--node-accent);
    color: var(--node-accent);
  }
  .badge[data-tone="good"] {
    border-color: var(--node-success);
    color: var(--node-success);
  }
  .badge[data-tone="bad"] {
    border-color: var(--node-danger);
    color: var(--node-danger);
  }
  button,
  .button {
    font: inherit;
    font-weight: 600;
    cursor: pointer;
    border-radius: 6px;
    border: 1px solid var(--node-accent);
    background: var(--node-accent);
    color: var(--node-accent-text);
    padding: 8px 14px;
    min-height: 40px;
    text-decoration: none;
    display: inline-flex;
    align-items: center;
    justify-content: center;
  }
  button.secondary,
  .button.secondary {
    background: transparent;
    color: var(--node-accent);
  }
  button.danger {
    background: transparent;
    border-color: var(--node-danger);
    color: var(--node-danger);
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
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
    gap: 8px;
    align-items: center;
  }
  .table-wrap {
    overflow-x: auto;
    margin: 0 0 12px;
  }
  table {
    border-collapse: collapse;
    width: 100%;
  }
  th,
  td {
    text-align: left;
    padding: 8px;
    border-bottom: 1px solid var(--node-border);
    vertical-align: top;
  }
  th {
    font-size: 0.85rem;
    color: var(--node-muted);
  }
  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
  code {
    font-family: var(--node-font-mono);
    white-space: nowrap;
  }
`
