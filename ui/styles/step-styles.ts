/** How a step of a project reads wherever it is listed: the plan of a project and the work queue. */
import { css } from "lit"

export const stepStyles = css`
  .step {
    padding: var(--node-space-3) 0;
    border-top: 1px solid var(--node-border);
  }
  .step p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--node-space-1) var(--node-space-3);
    margin: 0 0 var(--node-space-1);
  }
  .title {
    font-weight: var(--node-font-weight-semibold);
  }
  .facts {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--node-space-1) var(--node-space-4);
    font-size: var(--node-font-size-sm);
  }
  /* A team member's picture beside their name, at the size of the text. */
  .avatar {
    color: var(--node-accent);
    margin: 0 var(--node-space-1) 0 0;
    --node-icon-size: 1.1em;
  }
  .avatar svg {
    vertical-align: -0.2em;
  }
`
