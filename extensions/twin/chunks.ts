/**
 * A file's text cut into memory-sized pieces: paragraphs packed together up to `size`
 * characters, a paragraph longer than that cut at the last space before the limit (or at the
 * limit when it has none). Blank pieces are dropped: a memory is never blank.
 */
export const chunksOf = (text: string, size: number): ReadonlyArray<string> => {
  const pieces: Array<string> = []
  let current = ""
  const flush = () => {
    if (current.trim() !== "") pieces.push(current.trim())
    current = ""
  }
  for (const paragraph of text.split(/\n\s*\n/)) {
    let rest = paragraph.trim()
    if (rest === "") continue
    if (current !== "" && current.length + 2 + rest.length > size) flush()
    while (rest.length > size) {
      flush()
      const space = rest.lastIndexOf(" ", size)
      const cut = space > size / 2 ? space : size
      pieces.push(rest.slice(0, cut).trim())
      rest = rest.slice(cut).trim()
    }
    current = current === "" ? rest : `${current}\n\n${rest}`
  }
  flush()
  return pieces
}

export const SUMMARY_LENGTH = 160

/**
 * The line a file listing shows for an indexed file: its first non-blank line (a Markdown
 * heading's or list item's marks dropped), spaces collapsed, cut at a word near 160 characters.
 */
export const summaryOf = (text: string): string | null => {
  const first = text
    .split("\n")
    .map((line) =>
      line
        .replace(/^\s*(#{1,6}\s+|[-*+>]\s+)/, "")
        .replace(/\s+/g, " ")
        .trim()
    )
    .find((line) => line !== "")
  if (first === undefined) return null
  if (first.length <= SUMMARY_LENGTH) return first
  const space = first.lastIndexOf(" ", SUMMARY_LENGTH - 1)
  return `${first.slice(0, space > SUMMARY_LENGTH / 2 ? space : SUMMARY_LENGTH - 1)}…`
}
