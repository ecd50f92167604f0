/**
 * The one markdown pipeline's first half: marked's lexer reads the Markdown (GitHub flavour:
 * tables, task lists, strikethrough), and its tokens become this small document tree, which
 * both the DOCX and the PDF writer render. Images are only named here (their `src`); the writer
 * loads them from the workspace (workspace-images.ts). Raw HTML is dropped as markup, its text kept.
 */
import type { marked as Marked, Token, Tokens } from "marked"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** Loaded when a document is first written: an idle node does not hold it. */
const markedOf = lazyModule<{ readonly marked: typeof Marked }>("marked")

export interface Run {
  readonly text: string
  readonly bold: boolean
  readonly italic: boolean
  readonly strike: boolean
  readonly code: boolean
  /** The address a linked run points at. */
  readonly link: string | null
}

export type Align = "left" | "center" | "right" | null

export interface ListItem {
  /** A task list's box: true ticked, false empty, null no box. */
  readonly checked: boolean | null
  readonly blocks: ReadonlyArray<Block>
}

export type Block =
  | { readonly kind: "heading"; readonly depth: 1 | 2 | 3 | 4 | 5 | 6; readonly runs: ReadonlyArray<Run> }
  | { readonly kind: "paragraph"; readonly runs: ReadonlyArray<Run> }
  | {
      readonly kind: "list"
      readonly ordered: boolean
      readonly start: number
      readonly items: ReadonlyArray<ListItem>
    }
  | { readonly kind: "code"; readonly language: string; readonly text: string }
  | { readonly kind: "quote"; readonly blocks: ReadonlyArray<Block> }
  | {
      readonly kind: "table"
      readonly align: ReadonlyArray<Align>
      readonly header: ReadonlyArray<ReadonlyArray<Run>>
      readonly rows: ReadonlyArray<ReadonlyArray<ReadonlyArray<Run>>>
    }
  | { readonly kind: "image"; readonly src: string; readonly alt: string }
  | { readonly kind: "rule" }

type Style = Omit<Run, "text">

const plain: Style = { bold: false, italic: false, strike: false, code: false, link: null }

const tokensOf = (token: Token): ReadonlyArray<Token> =>
  "tokens" in token && Array.isArray(token.tokens) ? token.tokens : []

/** Inline tokens as runs; an image among them is handed to `image` (a paragraph splits around it). */
const runsOf = (tokens: ReadonlyArray<Token>, style: Style, image: (token: Tokens.Image) => void): Array<Run> =>
  tokens
    .flatMap((token): Array<Run> => {
      switch (token.type) {
        case "strong":
          return runsOf(tokensOf(token), { ...style, bold: true }, image)
        case "em":
          return runsOf(tokensOf(token), { ...style, italic: true }, image)
        case "del":
          return runsOf(tokensOf(token), { ...style, strike: true }, image)
        case "link":
          return runsOf(tokensOf(token), { ...style, link: (token as Tokens.Link).href }, image)
        case "codespan":
          return [{ ...style, code: true, text: (token as Tokens.Codespan).text }]
        case "br":
          return [{ ...style, text: "\n" }]
        case "image":
          image(token as Tokens.Image)
          return []
        case "html":
          return []
        case "checkbox":
          return []
        case "text":
        case "escape": {
          const nested = tokensOf(token)
          return nested.length > 0
            ? runsOf(nested, style, image)
            : [{ ...style, text: String((token as Tokens.Text).text ?? "") }]
        }
        default:
          return "text" in token && typeof token.text === "string" ? [{ ...style, text: token.text }] : []
      }
    })
    .filter((run) => run.text !== "")

/** A paragraph's inline content, split where an image stands so the image becomes a block of its own. */
const inlineBlocks = (tokens: ReadonlyArray<Token>, make: (runs: ReadonlyArray<Run>) => Block): Array<Block> => {
  const blocks: Array<Block> = []
  let pending: Array<Token> = []
  const flush = () => {
    const runs = runsOf(pending, plain, () => {})
    if (runs.some((run) => run.text.trim() !== "")) blocks.push(make(runs))
    pending = []
  }
  for (const token of tokens) {
    if (token.type === "image") {
      flush()
      blocks.push({ kind: "image", src: (token as Tokens.Image).href, alt: (token as Tokens.Image).text })
    } else pending.push(token)
  }
  flush()
  return blocks
}

const headingDepth = (depth: number) => Math.min(6, Math.max(1, depth)) as 1 | 2 | 3 | 4 | 5 | 6

const cellRuns = (cell: Tokens.TableCell) => runsOf(cell.tokens, plain, () => {})

const blocksOf = (tokens: ReadonlyArray<Token>): Array<Block> =>
  tokens.flatMap((token): Array<Block> => {
    switch (token.type) {
      case "heading": {
        const heading = token as Tokens.Heading
        return [{ kind: "heading", depth: headingDepth(heading.depth), runs: runsOf(heading.tokens, plain, () => {}) }]
      }
      case "paragraph":
      case "text": {
        const nested = tokensOf(token)
        return inlineBlocks(nested.length > 0 ? nested : [token], (runs) => ({ kind: "paragraph", runs }))
      }
      case "list": {
        const list = token as Tokens.List
        return [
          {
            kind: "list",
            ordered: list.ordered,
            start: typeof list.start === "number" ? list.start : 1,
            items: list.items.map((item) => ({
              checked: item.task ? item.checked === true : null,
              blocks: blocksOf(item.tokens)
            }))
          }
        ]
      }
      case "code": {
        const code = token as Tokens.Code
        return [{ kind: "code", language: code.lang ?? "", text: code.text }]
      }
      case "blockquote":
        return [{ kind: "quote", blocks: blocksOf((token as Tokens.Blockquote).tokens) }]
      case "table": {
        const table = token as Tokens.Table
        return [
          {
            kind: "table",
            align: table.align,
            header: table.header.map(cellRuns),
            rows: table.rows.map((row) => row.map(cellRuns))
          }
        ]
      }
      case "hr":
        return [{ kind: "rule" }]
      default:
        return []
    }
  })

/** The document tree of a Markdown text; a title, when given and the text opens with no heading, heads it. */
export const markdownTree = (markdown: string, title?: string): ReadonlyArray<Block> => {
  const blocks = blocksOf(markedOf().marked.lexer(markdown, { gfm: true }))
  const opensWithHeading = blocks[0]?.kind === "heading" && blocks[0].depth === 1
  return title === undefined || title.trim() === "" || opensWithHeading
    ? blocks
    : [{ kind: "heading", depth: 1, runs: [{ ...plain, text: title }] }, ...blocks]
}

/** Every image a tree names, in reading order. */
export const imagesOf = (blocks: ReadonlyArray<Block>): Array<string> =>
  blocks.flatMap((block): Array<string> => {
    switch (block.kind) {
      case "image":
        return [block.src]
      case "quote":
        return imagesOf(block.blocks)
      case "list":
        return block.items.flatMap((item) => imagesOf(item.blocks))
      default:
        return []
    }
  })

/** A run list's plain text (a table cell's width, a heading's bookmark). */
export const textOf = (runs: ReadonlyArray<Run>) => runs.map((run) => run.text).join("")
