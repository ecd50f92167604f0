/** Styles places share for lists of records: a list divided by rules, and a record's line of facts under it. */
import { css } from "lit"

export const recordListStyles = css`
  ul.records {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  ul.records > li {
    padding: var(--node-space-3) 0;
    border-top: 1px solid var(--node-border);
  }
  ul.records > li:first-child {
    border-top: none;
  }
  .meta {
    display: flex;
    flex-wrap: wrap;
    gap: var(--node-space-1) var(--node-space-3);
    align-items: center;
    margin: 0;
    font-size: var(--node-font-size-sm);
  }
`
