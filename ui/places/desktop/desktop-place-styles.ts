/** The styles of <desktop-place>, apart from its behaviour. */
import { css } from "lit"
import { sharedStyles } from "../../styles/shared-styles.ts"

export const desktopPlaceStyles = [
  sharedStyles,
  css`
      :host {
        container-type: inline-size;
      }
      .head-actions {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-start;
        justify-content: space-between;
        gap: 8px 16px;
        margin: 0 0 var(--node-gap);
      }
      .head h1 {
        margin: 0;
      }
      .signed-in-as {
        margin: 0;
      }
      .columns {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        gap: var(--node-gap);
        align-items: start;
      }
      @container (min-width: 44rem) {
        .columns.count-2 {
          grid-template-columns: repeat(2, minmax(0, 1fr));
        }
        .columns.count-3 {
          grid-template-columns: repeat(3, minmax(0, 1fr));
        }
      }
      .column {
        display: flex;
        flex-direction: column;
        gap: var(--node-gap);
        min-width: 0;
      }
      .widget {
        margin: 0;
      }
      .widget-head {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        justify-content: space-between;
        gap: 4px 12px;
        margin: 0 0 12px;
      }
      .widget-head h2 {
        margin: 0;
      }
      .position {
        font-size: 0.85rem;
      }
      .moves {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin: 0 0 12px;
      }
      .moves button {
        padding: 4px 10px;
      }
      .empty-column {
        border: 2px dashed var(--node-border);
        border-radius: var(--node-radius);
        padding: var(--node-gap);
        margin: 0;
      }
      .unavailable {
        margin-bottom: 4px;
      }
    `
]
