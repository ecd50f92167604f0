/**
 * The run's verdicts: each section records the figures an issue aims at, and run.ts prints them
 * all as one table at the end, so a run's standing is read in one place instead of from each
 * section's own lines. Markdown table lines with padded cells: aligned in a terminal, and pasted
 * into docs/benchmarks.md as they are.
 */

export interface Verdict {
  readonly figure: string
  /** The figure as measured; when it could not be measured, why. */
  readonly measured: string
  /** What it was compared with in the same run, and that value; "—" when nothing. */
  readonly anchor: string
  readonly aim: string
  /** null: no aim applies, or the figure could not be measured. */
  readonly met: boolean | null
}

const recorded: Array<Verdict> = []

export const recordVerdict = (verdict: Verdict) => {
  recorded.push(verdict)
}

/** Whether `value` meets its aim; null when it is not a number (a ratio of nothing, a run that failed). */
export const meets = (value: number, aim: (value: number) => boolean) => (Number.isFinite(value) ? aim(value) : null)

/** The table of every figure recorded so far; an empty string when none was. */
export const verdictTable = () => {
  if (recorded.length === 0) return ""
  const rows = [
    ["figure", "measured", "anchor", "aim", "verdict"],
    ...recorded.map(({ figure, measured, anchor, aim, met }) => [
      figure,
      measured,
      anchor,
      aim,
      met === null ? "—" : met ? "met" : "missed"
    ])
  ].map((row) => row.map((cell) => cell.replaceAll("|", "\\|")))
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  const line = (cells: ReadonlyArray<string>) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(" | ")} |`
  return [line(rows[0]!), line(widths.map((width) => "-".repeat(width))), ...rows.slice(1).map(line)].join("\n")
}
