/**
 * Markdown or text notes as memories: the YAML front matter's tags kept (a list, or one string of words), the body
 * as the memory's content, titled by the note's file name unless it starts with a heading. A note longer than a
 * memory holds (4000 characters) becomes several `document` memories, each saying which part it is.
 */
import { createHash } from "node:crypto"
import type * as Yaml from "yaml"
import { lazyModule } from "../../../kernel/lazy-module.ts"

/** Loaded at the first import of notes, not at start: an idle node does not hold it. */
const yamlOf = lazyModule<typeof Yaml>("yaml")

export const MEMORY_MAX = 4000
const PART_MAX = MEMORY_MAX - 40

export interface NoteDraft {
  /** SHA-256 of the note's text: the same note imported again is skipped. */
  readonly hash: string
  readonly parts: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
}

export const isNoteName = (name: string) => /\.(md|markdown|txt)$/i.test(name)

const tagsOf = (front: unknown): Array<string> => {
  const raw = typeof front === "object" && front !== null ? (front as { tags?: unknown }).tags : undefined
  const list = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(/[\s,]+/) : []
  return [
    ...new Set(
      list.map((tag) => String(tag).trim().replace(/^#/, "")).filter((tag) => tag.length >= 1 && tag.length <= 64)
    )
  ].slice(0, 20)
}

/** Splits at paragraph breaks where it can, so each part reads on its own. */
const split = (body: string): Array<string> => {
  const parts: Array<string> = []
  let rest = body
  while (rest.length > PART_MAX) {
    const cut = rest.lastIndexOf("\n\n", PART_MAX)
    const at = cut > PART_MAX / 2 ? cut : PART_MAX
    parts.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trim()
  }
  parts.push(rest)
  return parts
}

/** The note at `path` (its name titles it), or null when it holds no text. */
export const readNote = (path: string, source: string): NoteDraft | null => {
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n")
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(text)
  let front: unknown = null
  if (match !== null) {
    try {
      front = yamlOf().parse(match[1]!)
    } catch {
      front = null
    }
  }
  const body = (match === null ? text : text.slice(match[0].length)).trim()
  if (body === "") return null
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.(md|markdown|txt)$/i, "")
  const titled = body.startsWith("#") ? body : `# ${name}\n\n${body}`
  const pieces = split(titled)
  return {
    hash: createHash("sha256").update(text).digest("hex"),
    parts:
      pieces.length === 1
        ? pieces
        : pieces.map((piece, index) => `${piece}\n\n(${name}, part ${index + 1} of ${pieces.length})`),
    tags: tagsOf(front)
  }
}
