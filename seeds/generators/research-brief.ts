/** A sourced brief on a topic: research notes first, then the brief written from them. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const researchBrief: GeneratorSeed = {
  slug: "research-brief",
  name: "Research brief",
  description: "A sourced brief on any topic: what is known, what is disputed, and where each claim comes from.",
  icon: "🔎",
  inputsSchema: {
    type: "object",
    required: ["topic"],
    additionalProperties: false,
    properties: {
      topic: {
        type: "string",
        title: "Topic",
        description: "What the brief is about.",
        minLength: 3,
        maxLength: 300,
        "x-placeholder": "Home batteries for a small house"
      },
      audience: {
        type: "string",
        title: "Audience",
        description: "Who will read it.",
        maxLength: 200,
        default: "a curious reader new to the subject",
        "x-placeholder": "Our board"
      },
      questions: {
        type: "string",
        title: "Questions to answer",
        description: "One a line; leave empty to let the researcher choose.",
        maxLength: 2000,
        "x-multiline": true,
        "x-placeholder": "What does one cost?\nHow long does it last?"
      },
      length: { type: "integer", title: "Length in words", minimum: 300, maximum: 3000, default: 900 },
      minSources: {
        type: "integer",
        title: "Sources at least",
        description: "How many distinct sources the brief must cite.",
        minimum: 1,
        maximum: 20,
        default: 4,
        "x-advanced": true
      }
    }
  },
  steps: [
    {
      id: "research",
      title: "Research {{inputs.topic}}",
      role: "researcher",
      skills: ["web.search", "web.fetch", "docs.write_markdown"],
      instruction:
        "Research {{inputs.topic}} for {{inputs.audience}}. Search the web, open the most authoritative pages and take notes: " +
        "facts with numbers and dates, where sources disagree, and what nobody seems to know. Questions to answer, if any:\n" +
        "{{inputs.questions}}\n\nFind at least {{inputs.minSources}} distinct sources and link each fact to its page. " +
        "Save the notes as research/notes.md.",
      deliverable: { file: "research/notes.md", minSourceLinks: 3 }
    },
    {
      id: "brief",
      title: "Write the brief on {{inputs.topic}}",
      role: "writer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Write a brief on {{inputs.topic}} for {{inputs.audience}}, about {{inputs.length}} words, from these research notes " +
        "(research/notes.md):\n\n{{steps.research.output}}\n\nUse the sections Summary, Key findings, Open questions and Sources. " +
        "Every claim keeps the link to its source; say plainly where the sources disagree. Save it as brief.md.",
      dependsOn: ["research"],
      deliverable: {
        file: "brief.md",
        words: { target: "{{inputs.length}}", tolerance: 0.25 },
        requireSections: ["Summary", "Key findings", "Open questions", "Sources"],
        minSourceLinks: 3,
        forbidOpeners: ["In today's", "In an ever", "In the world of"]
      }
    }
  ],
  outputKinds: ["markdown"]
}
