/**
 * What the deliverable checks read from a markdown file: its frontmatter, its prose (the body
 * outside fenced code), words, source links, headings and the opening of its first paragraph.
 * Line-based on purpose: agents write plain markdown, and the checks must be predictable enough
 * that a repair prompt can say exactly what to change.
 */
import type * as Yaml from "yaml"
import { lazyModule } from "../../../kernel/lazy-module.ts"

/** Loaded at the first front matter read: an idle node does not hold it. */
const yamlOf = lazyModule<typeof Yaml>("yaml")

export interface Frontmatter {
  /** The YAML between the fences, or null when the file has none. */
  readonly yaml: string | null
  readonly body: string
}

const frontmatterBlock = /^\uFEFF?---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/

export const splitFrontmatter = (content: string): Frontmatter => {
  const match = frontmatterBlock.exec(content)
  return match === null ? { yaml: null, body: content } : { yaml: match[1] ?? "", body: content.slice(match[0].length) }
}

export type ParsedFrontmatter =
  | { readonly _tag: "Fields"; readonly fields: Readonly<Record<string, unknown>> }
  | { readonly _tag: "Invalid"; readonly reason: string }

export const parseFrontmatter = (yaml: string): ParsedFrontmatter => {
  const document = yamlOf().parseDocument(yaml)
  const [error] = document.errors
  if (error !== undefined) return { _tag: "Invalid", reason: error.message.split("\n")[0] ?? error.message }
  const value: unknown = document.toJS()
  // An empty block is an empty mapping; a scalar or a list is not frontmatter.
  if (value === null || value === undefined) return { _tag: "Fields", fields: {} }
  if (typeof value !== "object" || Array.isArray(value))
    return { _tag: "Invalid", reason: "it is not a set of key: value pairs" }
  return { _tag: "Fields", fields: value as Record<string, unknown> }
}

/** Present and not blank: false and 0 are values, an empty string, list or mapping is not. */
export const hasValue = (value: unknown): boolean => {
  if (value === null || value === undefined) return false
  if (typeof value === "string") return value.trim() !== ""
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === "object") return Object.keys(value).length > 0
  return true
}

const urlCandidate = /https?:\/\/[^\s<>"'`[\]{}|\\^]+/gi

/** Sentence punctuation and markdown emphasis are not part of a link written at the end of a phrase. */
const trimUrl = (raw: string): string => {
  let url = raw
  for (;;) {
    const unbalanced = url.endsWith(")") && url.split("(").length < url.split(")").length
    if (unbalanced || /[.,;:!?*_~]$/.test(url)) url = url.slice(0, -1)
    else return url
  }
}

/**
 * Distinct http(s) links, as a set of normalised addresses: the fragment is dropped and the URL
 * parser lowercases the host and adds the root path, so `https://A.org` and `https://a.org/#x`
 * are one source.
 */
export const sourceLinks = (lines: ReadonlyArray<string>): ReadonlySet<string> => {
  const links = new Set<string>()
  for (const raw of lines.join("\n").match(urlCandidate) ?? []) {
    const url = URL.parse(trimUrl(raw))
    if (url === null || url.hostname === "") continue
    url.hash = ""
    links.add(url.href)
  }
  return links
}

const atxHeading = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/
const setextUnderline = /^ {0,3}(?:=+|-+)[ \t]*$/
const thematicBreak = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const blockStart = /^ {0,3}(?:[>#]|[-*+][ \t]|\d+[.)][ \t])/

const isSetextUnderline = (lines: ReadonlyArray<string>, index: number): boolean => {
  const previous = lines[index - 1]
  return (
    index > 0 &&
    previous !== undefined &&
    previous.trim() !== "" &&
    !blockStart.test(previous) &&
    setextUnderline.test(lines[index] ?? "")
  )
}

/** Heading texts, ATX (`## Sources`) and setext (a line underlined with === or ---). */
export const headings = (lines: ReadonlyArray<string>): ReadonlyArray<string> =>
  lines.flatMap((line, index) => {
    const atx = atxHeading.exec(line)
    if (atx !== null) return [atx[1] ?? ""]
    return index + 1 < lines.length && isSetextUnderline(lines, index + 1) ? [line] : []
  })

/** How a heading is compared: case, emphasis, numbering ("2. Sources") and a trailing colon do not matter. */
export const headingKey = (text: string): string =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]/g, "")
    .replace(/^\s*\d+(?:\.\d+)*[.)]?\s+/, "")
    .replace(/\s*:\s*$/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase()

const imageOnly = /^\s*(?:!\[[^\]]*\]\([^)]*\)\s*)+$/

/**
 * The first paragraph of prose, as one line: headings, rules and lone images before it are not
 * how a piece opens; quote and list markers in front of it are stripped.
 */
export const openingParagraph = (lines: ReadonlyArray<string>): string => {
  const paragraph: Array<string> = []
  for (const [index, line] of lines.entries()) {
    const heading =
      atxHeading.test(line) ||
      isSetextUnderline(lines, index) ||
      (index + 1 < lines.length && isSetextUnderline(lines, index + 1))
    const skipped = line.trim() === "" || heading || thematicBreak.test(line) || imageOnly.test(line)
    if (skipped && paragraph.length > 0) break
    if (!skipped) paragraph.push(line.trim())
  }
  return paragraph.join(" ").replace(/^(?:[>\s]|[-*+]\s|\d+[.)]\s)+/, "")
}

/** How openers are compared: case, emphasis, curly quotes and leading quote marks do not matter. */
export const openerKey = (text: string): string =>
  text
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[*_`]/g, "")
    .replace(/^["'(\s]+/, "")
    .replace(/\s+/g, " ")
    .toLowerCase()
