/**
 * The document tree as a DOCX, through the `docx` library: Word's own heading styles (so the
 * navigation pane and a table of contents see them), real numbered and bulleted lists, tables
 * with a repeating header row, code in a monospaced shaded block, links as hyperlinks, and the
 * workspace's images scaled to the text width.
 */
import {
  AlignmentType,
  BorderStyle,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  ShadingType,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
  type ILevelsOptions,
  type INumberingOptions,
  type ParagraphChild
} from "docx"
import { absurd } from "effect/Function"
import type { Align, Block, Run } from "./markdown-tree.ts"
import { isRemote, type LoadedImage } from "./workspace-images.ts"

/** A4 less the default margins, in pixels at 96 dpi: the widest an image is drawn. */
const textWidthPx = 600
const codeFont = "Courier New"

const headings = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6
] as const

const alignments = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT } as const

const textRuns = (run: Run, style?: string): Array<TextRun> =>
  run.text.split("\n").map(
    (line, index) =>
      new TextRun({
        text: line,
        bold: run.bold,
        italics: run.italic,
        strike: run.strike,
        ...(index > 0 ? { break: 1 } : {}),
        ...(run.code ? { font: codeFont } : {}),
        ...(style === undefined ? {} : { style })
      })
  )

const inline = (runs: ReadonlyArray<Run>): Array<ParagraphChild> =>
  runs.flatMap(
    (run): Array<ParagraphChild> =>
      run.link === null
        ? textRuns(run)
        : [new ExternalHyperlink({ link: run.link, children: textRuns(run, "Hyperlink") })]
  )

const levels = (start: number, ordered: boolean): Array<ILevelsOptions> =>
  Array.from({ length: 9 }, (_, level) => ({
    level,
    format: ordered ? LevelFormat.DECIMAL : LevelFormat.BULLET,
    text: ordered ? `%${level + 1}.` : ["•", "◦", "▪"][level % 3]!,
    start,
    alignment: AlignmentType.START,
    style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } }
  }))

/**
 * Renders blocks, collecting the numbering definitions its ordered lists need (one each, so each counts from its own
 * start).
 */
const renderer = (images: ReadonlyMap<string, LoadedImage>) => {
  const numbering: Array<INumberingOptions["config"][number]> = [{ reference: "bullets", levels: levels(1, false) }]

  const image = (src: string, alt: string): Paragraph => {
    const loaded = images.get(src)
    if (loaded === undefined || isRemote(src)) {
      const label = alt === "" ? src : `${alt} (${src})`
      return new Paragraph({ children: [new TextRun({ text: `[image: ${label}]`, italics: true })] })
    }
    const scale = Math.min(1, textWidthPx / loaded.width)
    return new Paragraph({
      children: [
        new ImageRun({
          type: loaded.type,
          data: loaded.data,
          transformation: { width: Math.round(loaded.width * scale), height: Math.round(loaded.height * scale) },
          altText: { name: alt || src, description: alt, title: alt }
        })
      ]
    })
  }

  const cell = (runs: ReadonlyArray<Run>, align: Align, header: boolean) =>
    new TableCell({
      children: [
        new Paragraph({
          children: inline(header ? runs.map((run) => ({ ...run, bold: true })) : runs),
          ...(align === null ? {} : { alignment: alignments[align] })
        })
      ],
      ...(header ? { shading: { type: ShadingType.CLEAR, fill: "EDEDED", color: "auto" } } : {})
    })

  const render = (blocks: ReadonlyArray<Block>, depth: number, quoted: boolean): Array<Paragraph | Table> =>
    blocks.flatMap((block): Array<Paragraph | Table> => {
      const indent = quoted ? { indent: { left: 720 } } : {}
      switch (block.kind) {
        case "heading":
          return [new Paragraph({ heading: headings[block.depth - 1], children: inline(block.runs) })]
        case "paragraph":
          return [
            new Paragraph({
              children: inline(quoted ? block.runs.map((run) => ({ ...run, italic: true })) : block.runs),
              ...indent
            })
          ]
        case "code":
          return block.text.split("\n").map(
            (line) =>
              new Paragraph({
                children: [new TextRun({ text: line === "" ? " " : line, font: codeFont, size: 18 })],
                shading: { type: ShadingType.CLEAR, fill: "F3F3F3", color: "auto" },
                spacing: { before: 0, after: 0 }
              })
          )
        case "quote":
          return render(block.blocks, depth, true)
        case "rule":
          return [
            new Paragraph({
              children: [],
              border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: "999999", space: 1 } }
            })
          ]
        case "image":
          return [image(block.src, block.alt)]
        case "table":
          return [
            new Table({
              width: { size: 100, type: WidthType.PERCENTAGE },
              rows: [
                new TableRow({
                  tableHeader: true,
                  children: block.header.map((runs, column) => cell(runs, block.align[column] ?? null, true))
                }),
                ...block.rows.map(
                  (row) =>
                    new TableRow({
                      children: row.map((runs, column) => cell(runs, block.align[column] ?? null, false))
                    })
                )
              ]
            })
          ]
        case "list": {
          const reference = block.ordered ? `ordered-${numbering.length}` : "bullets"
          if (block.ordered) numbering.push({ reference, levels: levels(block.start, true) })
          const level = Math.min(depth, 8)
          return block.items.flatMap((item) => {
            const [first, ...rest] = item.blocks
            const box = item.checked === null ? [] : [new TextRun({ text: item.checked ? "☑ " : "☐ " })]
            const lead = first?.kind === "paragraph" ? first.runs : []
            const head = new Paragraph({ numbering: { reference, level }, children: [...box, ...inline(lead)] })
            const more = first?.kind === "paragraph" ? rest : item.blocks
            return [head, ...render(more, depth + 1, quoted)]
          })
        }
        default:
          return absurd(block)
      }
    })

  return { render, numbering }
}

export const renderDocx = async (
  blocks: ReadonlyArray<Block>,
  images: ReadonlyMap<string, LoadedImage>,
  title: string
): Promise<Uint8Array> => {
  const { render, numbering } = renderer(images)
  const children = render(blocks, 0, false)
  const document = new Document({
    creator: "svc",
    title,
    numbering: { config: numbering },
    styles: { default: { document: { run: { font: "Calibri", size: 22 } } } },
    sections: [{ children }]
  })
  return new Uint8Array(await Packer.toBuffer(document))
}
