/**
 * A place's sections as a row of tabs under its heading (`nav.sections > ul > li > a`, the current
 * one `aria-current="page"`): links, so the address says where one is. On a phone they become even
 * rows of `--node-section-columns` (3 unless the place says). List `containerStyles` with it.
 */
import { css } from "lit"

export const sectionTabsStyles = css`
  .sections ul {
    display: flex;
    gap: var(--node-space-1);
    list-style: none;
    margin: 0 0 var(--node-space-5);
    padding: 0;
    flex-wrap: wrap;
    border-bottom: 1px solid var(--node-border);
  }
  .sections a {
    display: block;
    padding: var(--node-space-2) var(--node-space-3);
    color: var(--node-muted);
    font-weight: var(--node-font-weight-semibold);
    text-decoration: none;
    white-space: nowrap;
    border-bottom: 3px solid transparent;
    margin-bottom: -1px;
  }
  .sections a:hover {
    color: var(--node-text);
  }
  .sections a[aria-current="page"] {
    color: var(--node-accent);
    border-bottom-color: var(--node-accent);
  }
  @container (max-width: 30rem) {
    .sections ul {
      display: grid;
      grid-template-columns: repeat(var(--node-section-columns, 3), minmax(0, 1fr));
    }
    .sections a {
      text-align: center;
      padding: var(--node-space-2) var(--node-space-1);
    }
  }
`
