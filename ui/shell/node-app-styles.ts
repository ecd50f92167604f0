/** The styles of <node-app>, apart from its behaviour. */
import { css } from "lit"
import { sharedStyles } from "../styles/shared-styles.ts"

export const nodeAppStyles = [
  sharedStyles,
  css`
      :host {
        display: block;
        min-height: 100vh;
      }
      /* The rail, then the content using the rest of a desktop's width (up to a limit). */
      .layout {
        display: grid;
        grid-template-columns: var(--node-rail-width) minmax(0, 1fr);
        min-height: 100vh;
      }
      /* The omnibar's top bar above the place, in the content's column. */
      .column {
        min-width: 0;
      }
      .top {
        padding: var(--node-space-4) var(--node-space-7) 0;
      }
      main {
        padding: var(--node-space-6) var(--node-space-7) var(--node-space-7);
        max-width: calc(var(--node-content-max) + 2 * var(--node-space-7));
        width: 100%;
        min-width: 0;
      }
      main:focus {
        outline: none;
      }
      .starting {
        padding: var(--node-space-6);
      }
      .skip {
        position: absolute;
        left: var(--node-space-2);
        top: -48px;
        background: var(--node-surface);
        padding: var(--node-space-2) var(--node-space-3);
        border-radius: var(--node-radius-sm);
        box-shadow: var(--node-shadow-2);
        z-index: 1;
      }
      .skip:focus {
        top: var(--node-space-2);
      }
      @media (max-width: 1100px) {
        .top {
          padding: var(--node-space-4) var(--node-space-5) 0;
        }
        main {
          padding: var(--node-space-5) var(--node-space-5) var(--node-space-6);
        }
      }
      @media (max-width: 700px) {
        .layout {
          grid-template-columns: minmax(0, 1fr);
          grid-template-rows: auto 1fr;
        }
        .top {
          padding: var(--node-space-2) var(--node-space-3) 0;
        }
        main {
          padding: var(--node-space-4) var(--node-space-3) var(--node-space-6);
        }
      }
    `
]
