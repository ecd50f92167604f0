/**
 * Styles every place shares, built from the design tokens of app.css: the type hierarchy
 * (a page's title and lead, a card's title, a section's title), cards, forms, buttons, badges,
 * tables, icons and the focus ring. Components list it first in their `static styles`.
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
    font-size: var(--node-font-size-2xl);
    font-weight: var(--node-font-weight-bold);
    line-height: var(--node-line-height-tight);
    letter-spacing: -0.01em;
    margin: 0 0 var(--node-space-2);
    overflow-wrap: anywhere;
  }
  /* The sentence under a page's title says what the place is for. */
  h1 + p.muted {
    max-width: var(--node-reading-max);
    margin: 0 0 var(--node-space-5);
  }
  h2 {
    font-size: var(--node-font-size-lg);
    font-weight: var(--node-font-weight-semibold);
    line-height: var(--node-line-height-tight);
    margin: 0 0 var(--node-space-3);
  }
  h3 {
    font-size: var(--node-font-size-md);
    font-weight: var(--node-font-weight-semibold);
    line-height: var(--node-line-height-tight);
    margin: 0 0 var(--node-space-2);
  }
  p {
    margin: 0 0 var(--node-space-3);
  }
  a {
    color: var(--node-accent);
    text-underline-offset: 2px;
  }
  a:hover {
    color: var(--node-accent-hover);
  }
  strong {
    font-weight: var(--node-font-weight-semibold);
  }
  .card {
    background: var(--node-surface);
    border: 1px solid var(--node-border);
    border-radius: var(--node-radius-lg);
    box-shadow: var(--node-shadow-1);
    padding: var(--node-space-5);
    margin: 0 0 var(--node-space-4);
    min-width: 0;
  }
  /* A card's title, and the muted sentence that may follow it. */
  .card > h2:first-child,
  .card-head h2 {
    font-size: var(--node-font-size-lg);
    margin: 0 0 var(--node-space-4);
  }
  .card > h2:first-child + p.muted {
    margin-top: calc(-1 * var(--node-space-3));
  }
  .card-head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--node-space-2) var(--node-space-4);
    margin: 0 0 var(--node-space-4);
  }
  .card-head h2 {
    margin: 0;
  }
  @media (max-width: 700px) {
    h1 {
      font-size: var(--node-font-size-xl);
    }
    .card {
      padding: var(--node-space-4);
      border-radius: var(--node-radius);
    }
  }
  .muted {
    color: var(--node-muted);
  }
  /* The way back to where a page belongs ("← Studio"), above its title. */
  .back {
    margin: 0 0 var(--node-space-3);
    font-size: var(--node-font-size-sm);
  }
  .back a {
    color: var(--node-muted);
    text-decoration: none;
    font-weight: var(--node-font-weight-medium);
  }
  .back a:hover {
    color: var(--node-text);
    text-decoration: underline;
  }
  /* Cards side by side where the place is wide enough (places set container-type on :host). */
  .split {
    display: grid;
    gap: 0 var(--node-space-4);
    align-items: start;
  }
  @container (min-width: 56rem) {
    .split {
      grid-template-columns: minmax(0, 3fr) minmax(0, 2fr);
    }
    .split.even {
      grid-template-columns: repeat(2, minmax(0, 1fr));
    }
  }
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
  /* An SVG icon (ui/components/icon.ts): the text's colour, a fixed box. */
  svg.icon {
    width: var(--node-icon-size);
    height: var(--node-icon-size);
    fill: currentColor;
    flex: none;
  }
  .table-wrap {
    container-type: inline-size;
    overflow-x: auto;
    margin: 0 0 var(--node-space-3);
  }
  table {
    border-collapse: collapse;
    width: 100%;
    font-size: var(--node-font-size-sm);
  }
  th,
  td {
    text-align: left;
    padding: var(--node-space-2) var(--node-space-3);
    border-bottom: 1px solid var(--node-border);
    vertical-align: middle;
    overflow-wrap: break-word;
  }
  th:first-child,
  td:first-child {
    padding-left: 0;
  }
  th:last-child,
  td:last-child {
    padding-right: 0;
  }
  th {
    font-size: var(--node-font-size-xs);
    font-weight: var(--node-font-weight-semibold);
    text-transform: uppercase;
    letter-spacing: var(--node-letter-spacing-caps);
    color: var(--node-muted);
    overflow-wrap: normal;
  }
  tbody tr:last-child td {
    border-bottom: none;
  }
  td button,
  td .button {
    min-height: 32px;
    padding: var(--node-space-1) var(--node-space-3);
  }
  /*
   * On a narrow card a table becomes a list of blocks, one a row, each cell under its column's
   * name (data-table.ts hands the names over as --node-col-<n>), so nothing is cut off. The
   * names are for the eye ('/ ""'): screen readers still have the table's own headings.
   */
  @container (max-width: 34rem) {
    .table-wrap :is(table, tbody, tr, td) {
      display: block;
    }
    .table-wrap thead {
      position: absolute;
      width: 1px;
      height: 1px;
      overflow: hidden;
      clip-path: inset(50%);
    }
    .table-wrap tr {
      padding: var(--node-space-3) 0;
      border-bottom: 1px solid var(--node-border);
    }
    .table-wrap tbody tr:last-child {
      border-bottom: none;
    }
    /* The column's name sits in the cell's left margin, so the cell's own content flows as before. */
    .table-wrap td {
      position: relative;
      min-height: 28px;
      padding: var(--node-space-1) 0 var(--node-space-1) 7.5rem;
      border: none;
    }
    .table-wrap td::before {
      position: absolute;
      left: 0;
      top: var(--node-space-1);
      width: 7rem;
      color: var(--node-muted);
      font-size: var(--node-font-size-xs);
      font-weight: var(--node-font-weight-semibold);
      text-transform: uppercase;
      letter-spacing: var(--node-letter-spacing-caps);
      line-height: 1.9;
    }
    .table-wrap td:nth-child(1)::before {
      content: var(--node-col-1, "") / "";
    }
    .table-wrap td:nth-child(2)::before {
      content: var(--node-col-2, "") / "";
    }
    .table-wrap td:nth-child(3)::before {
      content: var(--node-col-3, "") / "";
    }
    .table-wrap td:nth-child(4)::before {
      content: var(--node-col-4, "") / "";
    }
    .table-wrap td:nth-child(5)::before {
      content: var(--node-col-5, "") / "";
    }
    .table-wrap td:nth-child(6)::before {
      content: var(--node-col-6, "") / "";
    }
    .table-wrap td:nth-child(7)::before {
      content: var(--node-col-7, "") / "";
    }
    .table-wrap td:nth-child(8)::before {
      content: var(--node-col-8, "") / "";
    }
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
    font-size: 0.9em;
    white-space: nowrap;
  }
`

/** For an element whose own width decides its layout (container queries, `.split`). */
export const containerStyles = css`
  :host {
    container-type: inline-size;
  }
`

/**
 * A short form laid out in one row where its card is wide enough (a few fields and their
 * button), as a column otherwise. List `containerStyles` with it.
 */
export const inlineFormStyles = css`
  @container (min-width: 40rem) {
    form.inline {
      display: flex;
      flex-wrap: wrap;
      align-items: flex-end;
      max-width: 48rem;
      margin: 0 0 var(--node-space-5);
    }
    form.inline label {
      flex: 1 1 14rem;
    }
    form.inline label:has(input[type="number"]) {
      flex: 0 1 8rem;
    }
    form.inline .actions {
      flex: none;
    }
  }
`
