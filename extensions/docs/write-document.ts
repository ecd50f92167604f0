/**
 * docs.write_docx and docs.write_pdf: one pipeline (Markdown → the document tree → a writer) and
 * one input. The images the Markdown names are read from the call's file root (refused outside
 * it); the document is written into the root like docs.write_markdown's, its extension added
 * when the name has none and refused when it has another.
 */
import * as Schema from "effect/Schema"
import { defineSkill, fileRootOf, SkillFailure, type SkillContribution } from "../../kernel/extensions/skill.ts"
import { imagesOf, markdownTree, textOf, type Block } from "./markdown-tree.ts"
import { loadImages, type LoadedImage } from "./workspace-images.ts"

const Input = Schema.Struct({
  path: Schema.String.annotations({
    description: "Where to write, relative to the root; the format's extension is added when the name has none."
  }),
  title: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(300)), { exact: true }).annotations({
    description: "The document's title (its properties), and its first heading unless the content opens with one."
  }),
  content: Schema.String.pipe(Schema.maxLength(2_000_000)).annotations({
    description:
      "Markdown: headings, lists (task lists too), tables, code, links, and images from the root (PNG or JPEG, by relative path)."
  })
})

const outputFields = {
  path: Schema.String,
  size: Schema.Number.annotations({ description: "Bytes written." }),
  created: Schema.Boolean.annotations({ description: "False when an existing file was replaced." }),
  mime: Schema.String,
  images: Schema.Int.annotations({ description: "Images embedded from the root." })
}

interface Format {
  readonly extension: string
  readonly mime: string
  readonly render: (
    blocks: ReadonlyArray<Block>,
    images: ReadonlyMap<string, LoadedImage>,
    title: string
  ) => Promise<{ readonly bytes: Uint8Array; readonly pages?: number }>
}

const documentPath = (path: string, extension: string) => {
  const name = path.replaceAll("\\", "/").split("/").at(-1) ?? ""
  if (name === "") throw new SkillFailure({ message: `Name the document's file, e.g. reports/summary.${extension}.` })
  if (name.toLowerCase().endsWith(`.${extension}`)) return path
  if (name.lastIndexOf(".") > 0) throw new SkillFailure({ message: `"${path}" is not a .${extension} file name.` })
  return `${path}.${extension}`
}

const titleOf = (input: typeof Input.Type, blocks: ReadonlyArray<Block>) => {
  if (input.title !== undefined && input.title.trim() !== "") return input.title
  const heading = blocks.find((block) => block.kind === "heading")
  return heading?.kind === "heading" ? textOf(heading.runs) : ""
}

const write = async (format: Format, input: typeof Input.Type, context: Parameters<SkillContribution["run"]>[1]) => {
  const root = fileRootOf(context)
  const path = documentPath(input.path, format.extension)
  const blocks = markdownTree(input.content, input.title)
  const images = await loadImages(root, imagesOf(blocks))
  const rendered = await format.render(blocks, images, titleOf(input, blocks))
  const written = await root.write(path, rendered.bytes)
  context.trace({ kind: "message", text: `wrote ${written.path} (${written.size} bytes)` })
  return {
    ...written,
    mime: format.mime,
    images: images.size,
    ...(rendered.pages === undefined ? {} : { pages: rendered.pages })
  }
}

// The renderers load on first use: docx and pdfkit together cost ~40 MB resident and ~0.3 s at
// start, for skills most runs of the node never call.
const docx: Format = {
  extension: "docx",
  mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  render: async (blocks, images, title) => ({
    bytes: await (await import("./render-docx.ts")).renderDocx(blocks, images, title)
  })
}

const pdf: Format = {
  extension: "pdf",
  mime: "application/pdf",
  render: async (blocks, images, title) => (await import("./render-pdf.ts")).renderPdf(blocks, images, title)
}

export const writeDocx = defineSkill({
  description:
    "Write a Word document (.docx) from Markdown: headings, lists, tables, code, links and images from the file root.",
  input: Input,
  output: Schema.Struct(outputFields),
  timeoutMs: 120_000,
  run: (input, context) => write(docx, input, context)
})

export const writePdf = defineSkill({
  description:
    "Write a PDF from Markdown (the same pipeline as docs.write_docx): headings, lists, tables, code, links and images from the file root.",
  input: Input,
  output: Schema.Struct({ ...outputFields, pages: Schema.Int.annotations({ description: "Pages of the PDF." }) }),
  timeoutMs: 120_000,
  run: async (input, context) => {
    const written = await write(pdf, input, context)
    return { ...written, pages: written.pages ?? 0 }
  }
})
