/**
 * How the studio reads prose and counts its words: the deliverable checks (pipeline/markdown.ts)
 * and the demo models that write to pass them (extensions/models/demo/) count alike, so a length
 * the one writes is the length the other reads.
 */
const fenceOpening = /^ {0,3}(`{3,}|~{3,})/

/**
 * The body's lines with fenced code blanked out (kept as empty lines, so paragraphs stay apart).
 * Code is not prose: its words are not the writer's, and a URL in a sample is not a source.
 */
export const proseLines = (body: string): ReadonlyArray<string> => {
  const lines = body.replace(/<!--[\s\S]*?-->/g, "").split(/\r?\n/)
  let closing: RegExp | null = null
  return lines.map((line) => {
    if (closing !== null) {
      if (closing.test(line)) closing = null
      return ""
    }
    const fence = fenceOpening.exec(line)?.[1]
    if (fence === undefined) return line
    // Closed by a run of the same character at least as long as the one that opened it.
    closing = new RegExp(`^ {0,3}\\${fence[0]}{${fence.length},}\\s*$`)
    return ""
  })
}

const wordPattern = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu

/** Words a reader reads: link text counts, link addresses and HTML tags do not. */
export const countWords = (lines: ReadonlyArray<string>): number => {
  const text = lines
    .join("\n")
    .replace(/\]\([^)\s]*(?:\s+"[^"]*")?\)/g, "]")
    .replace(/https?:\/\/\S+/gi, " ")
    .replace(/<\/?[A-Za-z][^>]*>/g, " ")
  return text.match(wordPattern)?.length ?? 0
}
