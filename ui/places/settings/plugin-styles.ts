/** How the owner's plugin lists draw a plugin: a list of bordered entries, each with its facts and actions. */
import { css } from "lit"

export const pluginStyles = css`
  ul.plugins {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: var(--node-space-4);
  }
  .plugin {
    border: 1px solid var(--node-border);
    border-radius: var(--node-radius-sm);
    padding: var(--node-space-4);
    overflow-wrap: anywhere;
  }
  .plugin h3 {
    margin: 0 0 var(--node-space-1);
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--node-space-2);
  }
  .plugin p {
    margin: 0 0 var(--node-space-2);
  }
  .label {
    font-weight: var(--node-font-weight-semibold);
  }
  .problem {
    color: var(--node-danger);
  }
  ul.contributions {
    margin: 0 0 var(--node-space-2);
    padding-left: var(--node-space-5);
  }
`
