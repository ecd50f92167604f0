/**
 * The Docs family: docs.write_markdown, and docs.write_docx and docs.write_pdf from one Markdown
 * pipeline (docs.write_pdf stays outside the built-in catalogue).
 */
import type { Activate } from "../../kernel/extensions/context.ts"
import type { PluginManifestInput } from "../../kernel/contract/manifest.ts"
import { writeDocx, writePdf } from "./write-document.ts"
import { writeMarkdown } from "./write-markdown.ts"

export const manifest: PluginManifestInput = {
  apiVersion: "1.0",
  id: "@svc/docs",
  version: "1.0.0",
  namespace: "docs",
  name: "Docs",
  description: "Write documents into a project's workspace or your uploads.",
  author: "svc",
  capabilities: [
    { kind: "filesystem", reason: "writes documents into the calling project's workspace or your uploads folder" }
  ],
  extensions: [
    { kind: "skill", id: "write_markdown", title: "Write Markdown", uses: ["filesystem"] },
    { kind: "skill", id: "write_docx", title: "Write a Word document", uses: ["filesystem"] },
    { kind: "skill", id: "write_pdf", title: "Write a PDF", uses: ["filesystem"] }
  ]
}

export const activate: Activate = (context) => {
  context.contribute("skill", "write_markdown", writeMarkdown)
  context.contribute("skill", "write_docx", writeDocx)
  context.contribute("skill", "write_pdf", writePdf)
}
