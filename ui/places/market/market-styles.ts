/** Styles the market's sections share: listing cards in a grid (lists of records: ui/styles/record-list-styles.ts). */
import { css } from "lit"
import { recordListStyles } from "../../styles/record-list-styles.ts"

export const marketStyles = [
  recordListStyles,
  css`
  ul.listings {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr));
    gap: var(--node-space-3);
  }
  .listing {
    position: relative;
    display: flex;
    flex-direction: column;
    gap: var(--node-space-1);
    border: 1px solid var(--node-border);
    border-radius: var(--node-radius);
    padding: var(--node-space-4);
    background: var(--node-surface);
    min-width: 0;
  }
  .listing:hover {
    border-color: var(--node-accent);
  }
  .listing h3 {
    margin: 0;
    font-size: var(--node-font-size-md);
    overflow-wrap: anywhere;
  }
  .listing p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .meta {
    color: var(--node-muted);
  }
  .price {
    font-weight: var(--node-font-weight-semibold);
    color: var(--node-text);
  }
`
]
