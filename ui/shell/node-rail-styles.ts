/** The styles of <node-rail>, apart from its behaviour. */
import { css } from "lit"
import { sharedStyles } from "../styles/shared-styles.ts"

export const nodeRailStyles = [
  sharedStyles,
  css`
      :host {
        background: var(--node-rail-bg);
        border-right: 1px solid var(--node-border);
        position: sticky;
        top: 0;
        height: 100vh;
        overflow-y: auto;
        padding: var(--node-space-5) var(--node-space-3) var(--node-space-4);
      }
      nav {
        display: flex;
        flex-direction: column;
        gap: var(--node-space-1);
        min-height: 100%;
      }
      .brand {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        font-size: var(--node-font-size-lg);
        font-weight: var(--node-font-weight-bold);
        letter-spacing: -0.01em;
        padding: 0 var(--node-space-3) var(--node-space-5);
      }
      .brand .icon {
        --node-icon-size: 28px;
        color: var(--node-accent);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 2px;
      }
      a {
        display: flex;
        align-items: center;
        gap: var(--node-space-3);
        min-height: 40px;
        padding: var(--node-space-2) var(--node-space-3);
        border-radius: var(--node-radius-sm);
        color: var(--node-text);
        text-decoration: none;
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-medium);
        transition: background-color var(--node-transition);
      }
      a .icon {
        color: var(--node-muted);
      }
      a:hover {
        background: var(--node-surface-raised);
        color: var(--node-text);
      }
      a[aria-current="page"] {
        background: var(--node-accent-soft);
        color: var(--node-accent-soft-text);
        font-weight: var(--node-font-weight-semibold);
      }
      a[aria-current="page"] .icon {
        color: var(--node-accent);
      }
      /* The live state and signing out sit at the foot of the rail. */
      .live {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        margin: auto 0 0;
        padding: var(--node-space-4) var(--node-space-3) var(--node-space-2);
        font-size: var(--node-font-size-xs);
        color: var(--node-muted);
      }
      .dot {
        width: 8px;
        height: 8px;
        border-radius: 50%;
        background: var(--node-muted);
        flex: none;
      }
      .live[data-state="live"] .dot {
        background: var(--node-success);
        box-shadow: 0 0 0 3px var(--node-success-bg);
      }
      .live[data-state="reconnecting"] .dot {
        background: transparent;
        border: 2px solid var(--node-danger);
      }
      .sign-out {
        justify-content: flex-start;
        margin: var(--node-space-1) 0 0;
      }
      ul + .sign-out {
        margin-top: auto;
      }
      /* The "More" tab and its sheet are the phone's; a wide screen lists every place. */
      .more {
        display: none;
      }
      @media (max-width: 700px) {
        .beyond {
          display: none;
        }
        .more {
          display: block;
        }
        .more-button {
          width: 100%;
          flex-direction: column;
          gap: 2px;
          min-height: 52px;
          padding: var(--node-space-1) 2px;
          border: none;
          border-bottom: 3px solid transparent;
          border-radius: var(--node-radius-sm) var(--node-radius-sm) 0 0;
          background: transparent;
          color: var(--node-text);
          font-size: var(--node-font-size-xs);
          font-weight: var(--node-font-weight-medium);
          anchor-name: --more-places;
        }
        .more-button:hover:not(:disabled) {
          background: var(--node-surface-raised);
          border-color: transparent;
          color: var(--node-text);
        }
        .more-button .icon {
          color: var(--node-muted);
        }
        .more-button[data-current="true"] {
          border-bottom-color: var(--node-accent);
        }
        /* The sheet hangs under "More", at the screen's right edge, above the place. */
        #more-places {
          position-anchor: --more-places;
          inset: auto;
          top: anchor(bottom);
          right: var(--node-space-2);
          margin: var(--node-space-1) 0 0;
          min-width: 12rem;
          max-height: calc(100vh - 8rem);
          overflow-y: auto;
          padding: var(--node-space-2);
          border: 1px solid var(--node-border);
          border-radius: var(--node-radius-sm);
          background: var(--node-surface);
          color: var(--node-text);
          box-shadow: 0 8px 24px rgb(0 0 0 / 0.18);
        }
        #more-places ul {
          flex-direction: column;
          gap: 2px;
        }
        #more-places li {
          flex: none;
        }
        #more-places a {
          flex-direction: row;
          justify-content: flex-start;
          gap: var(--node-space-3);
          min-height: 44px;
          padding: var(--node-space-2) var(--node-space-3);
          border-radius: var(--node-radius-sm);
          border-bottom: none;
          font-size: var(--node-font-size-sm);
          text-align: left;
        }
        #more-places a[aria-current="page"] {
          background: var(--node-accent-soft);
        }
        :host {
          position: static;
          height: auto;
          overflow: visible;
          border-right: none;
          border-bottom: 1px solid var(--node-border);
          padding: var(--node-space-2) var(--node-space-3) 0;
        }
        /* Two rows that never wrap: brand, live state and sign out; then the places. */
        nav {
          display: grid;
          grid-template-columns: minmax(0, 1fr) auto auto;
          grid-template-areas:
            "brand live out"
            "items items items";
          align-items: center;
          column-gap: var(--node-space-2);
          row-gap: var(--node-space-1);
          min-height: 0;
        }
        .brand {
          grid-area: brand;
          padding: 0 var(--node-space-1);
          font-size: var(--node-font-size-md);
        }
        .brand .icon {
          --node-icon-size: 24px;
        }
        ul {
          grid-area: items;
          flex-direction: row;
          gap: 0;
        }
        li {
          flex: 1 1 0;
          min-width: 0;
        }
        a {
          flex-direction: column;
          justify-content: center;
          gap: 2px;
          min-height: 52px;
          padding: var(--node-space-1) 2px;
          border-radius: var(--node-radius-sm) var(--node-radius-sm) 0 0;
          font-size: var(--node-font-size-xs);
          text-align: center;
          border-bottom: 3px solid transparent;
        }
        a span,
        .more-button span {
          max-width: 100%;
          overflow: hidden;
          text-overflow: ellipsis;
          white-space: nowrap;
        }
        a[aria-current="page"] {
          background: transparent;
          border-bottom-color: var(--node-accent);
        }
        .live {
          grid-area: live;
          margin: 0;
          padding: 0 var(--node-space-1);
        }
        .sign-out {
          grid-area: out;
          margin: 0;
          padding: var(--node-space-2);
          min-width: 40px;
        }
        /* Heard, not seen: the dot and the icon say it on a phone. */
        .live-label,
        .sign-out-label {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip-path: inset(50%);
          white-space: nowrap;
        }
      }
    `
]
