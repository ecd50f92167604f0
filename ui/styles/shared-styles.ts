/**
 * Styles every place shares, built from the design tokens of app.css: the type hierarchy
 * (a page's title and lead, a card's title, a section's title) and cards here; forms, buttons,
 * badges and the focus ring in control-styles.ts; tables, icons and the rest in
 * table-styles.ts. Components list `sharedStyles` first in their `static styles`.
 */
import { css } from "lit"
import { controlStyles } from "./control-styles.ts"
import { tableStyles } from "./table-styles.ts"

const textStyles = css`
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
  /* "Show more …" under a list the node answers a page at a time (components/paged-resource.ts). */
  .show-more {
    margin-top: var(--node-space-3);
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
`

export const sharedStyles = [textStyles, controlStyles, tableStyles]

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
