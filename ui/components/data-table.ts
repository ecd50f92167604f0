/**
 * The markup every list in the app shares: a table that scrolls sideways inside its card on a
 * narrow screen (`table-wrap`, in the shared styles) with headings screen readers tie to each
 * cell (`scope="col"`). Rows are the caller's `<tr>`s.
 */
import { html } from "lit"

/** The heading of a column of buttons: read out to screen readers, muted on screen. */
export const actionHeading = html`<span class="muted">Action</span>`

export const dataTable = (headings: ReadonlyArray<unknown>, rows: unknown) =>
  html`<div class="table-wrap">
    <table>
      <thead>
        <tr>${headings.map((heading) => html`<th scope="col">${heading}</th>`)}</tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`
