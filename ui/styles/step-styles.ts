/** How a step of a project reads wherever it is listed: the plan of a project and the work queue. */
import { css } from "lit"

export const stepStyles = css`
  .step {
    padding: 0 0 10px;
    border-bottom: 1px solid var(--node-border);
  }
  .step p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .head {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 4px 10px;
  }
  .title {
    font-weight: 600;
  }
  .facts {
    display: flex;
    flex-wrap: wrap;
    gap: 2px 16px;
    font-size: 0.9rem;
  }
`
