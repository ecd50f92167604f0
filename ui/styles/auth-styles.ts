/**
 * The places of someone signed out (log in, register, waitlist, reset, confirm email): one
 * narrow column in the middle of the content, the form's card with the links around it.
 */
import { css } from "lit"

export const authStyles = css`
  :host {
    max-width: 28rem;
    margin: var(--node-space-6) auto 0;
  }
  h1 {
    margin-bottom: var(--node-space-4);
  }
  .card form {
    max-width: none;
  }
  /* A field's help sits right under it, smaller than the field's words. */
  form > span.muted {
    font-size: var(--node-font-size-sm);
    margin-top: calc(-1 * var(--node-space-3));
  }
  .card > p.muted:first-child {
    margin-bottom: var(--node-space-4);
  }
  @media (max-width: 700px) {
    :host {
      margin-top: var(--node-space-2);
    }
  }
`
