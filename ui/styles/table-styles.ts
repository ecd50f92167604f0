/** Tables, icons, the visually hidden text and code every place shares (part of sharedStyles). */
import { css } from "lit"

export const tableStyles = css`
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
