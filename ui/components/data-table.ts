/**
 * The markup every list in the app shares: a table with headings screen readers tie to each
 * cell (`scope="col"`). Rows are the caller's `<tr>`s. On a narrow card the shared styles draw
 * each row as a block with every cell under its column's name; the names reach the CSS as
 * custom properties (`--node-col-1` …) set through the CSSOM, which the content security
 * policy allows. (Lit's styleMap writes a `style` attribute on its first render, which the
 * policy refuses.)
 */
import { type ElementPart, html, noChange } from "lit"
import { Directive, directive } from "lit/directive.js"

/** The heading of a column of buttons: read out to screen readers, muted on screen. */
export const actionHeading = html`<span class="muted">Action</span>`

/** A heading's words as a CSS string; a heading that is markup (the action column) gets none. */
const cssString = (heading: unknown): string =>
  typeof heading === "string" ? `"${heading.replace(/["\\]/g, "\\$&").replace(/\n/g, " ")}"` : '""'

class ColumnNames extends Directive {
  render(_headings: ReadonlyArray<unknown>) {
    return noChange
  }

  override update(part: ElementPart, [headings]: [ReadonlyArray<unknown>]) {
    const style = (part.element as HTMLElement).style
    headings.forEach((heading, index) => {
      style.setProperty(`--node-col-${index + 1}`, cssString(heading))
    })
    return noChange
  }
}

const columnNames = directive(ColumnNames)

export const dataTable = (headings: ReadonlyArray<unknown>, rows: unknown) =>
  html`<div class="table-wrap">
    <table ${columnNames(headings)}>
      <thead>
        <tr>${headings.map((heading) => html`<th scope="col">${heading}</th>`)}</tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </div>`
