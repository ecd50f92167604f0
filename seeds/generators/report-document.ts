/**
 * A report as a document: research notes, then the report in Markdown exported with
 * docs.write_docx. (docs.write_pdf is outside the built-in catalogue, so no generator may
 * declare it: the document is a Word file, which opens anywhere and prints to PDF.)
 */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const reportDocument: GeneratorSeed = {
  slug: "report-as-a-document",
  name: "Report as a document",
  description: "A researched report on a question, delivered as a Word document beside its Markdown.",
  icon: "📑",
  inputsSchema: {
    type: "object",
    required: ["question"],
    additionalProperties: false,
    properties: {
      question: {
        type: "string",
        title: "The question",
        minLength: 10,
        maxLength: 1000,
        "x-multiline": true,
        "x-placeholder": "Should our team move its weekly meeting to an async update?"
      },
      audience: { type: "string", title: "Who reads it", maxLength: 200, default: "a busy decision maker" },
      length: { type: "string", title: "Length", enum: ["one page", "two pages", "in depth"], default: "one page" }
    }
  },
  steps: [
    {
      id: "research",
      title: "Research: {{inputs.question}}",
      role: "researcher",
      skills: ["web.search", "web.fetch", "files.write"],
      instruction:
        "Find what is known about: {{inputs.question}}\nNote the facts that matter, each with its source link, " +
        "and save the notes as research/notes.md.",
      deliverable: { file: "research/notes.md", minSourceLinks: 1 }
    },
    {
      id: "report",
      title: "Write the report",
      role: "writer",
      skills: ["files.read", "files.write", "docs.write_docx"],
      instruction:
        "Answer {{inputs.question}} for {{inputs.audience}}, {{inputs.length}}, from these notes:\n{{steps.research.output}}\n\n" +
        "Save the report as report.md with the sections Summary, Findings and Recommendation, keeping the source links. " +
        "Then export the same Markdown with docs.write_docx to report.docx.",
      outputKind: "docx",
      deliverable: { file: "report.md", requireSections: ["Summary", "Findings", "Recommendation"], minSourceLinks: 1 }
    }
  ],
  outputKinds: ["markdown", "docx"]
}
