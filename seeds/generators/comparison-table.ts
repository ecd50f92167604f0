/** A comparison of options against criteria: research, a scored table, and a recommendation. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const comparisonTable: GeneratorSeed = {
  slug: "comparison-table",
  name: "Comparison table",
  description:
    "Compare products, tools or choices side by side on the criteria you care about, with sources and a recommendation.",
  icon: "⚖️",
  inputsSchema: {
    type: "object",
    required: ["subject", "options"],
    additionalProperties: false,
    properties: {
      subject: {
        type: "string",
        title: "What is compared",
        minLength: 3,
        maxLength: 200,
        "x-placeholder": "Note-taking apps for a team of ten"
      },
      options: {
        type: "string",
        title: "Options",
        description: "One a line.",
        minLength: 3,
        maxLength: 2000,
        "x-multiline": true,
        "x-placeholder": "Notion\nObsidian\nLogseq"
      },
      criteria: {
        type: "string",
        title: "Criteria",
        description: "One a line; leave empty for price, features, ease of use and support.",
        maxLength: 2000,
        "x-multiline": true
      },
      useWeights: { type: "boolean", title: "Weigh the criteria", default: false },
      weights: {
        type: "string",
        title: "Weights",
        description: "One a line as criterion: weight.",
        maxLength: 1000,
        "x-multiline": true,
        "x-showWhen": "useWeights",
        "x-placeholder": "price: 3\nease of use: 2"
      }
    }
  },
  steps: [
    {
      id: "research",
      title: "Research the options for {{inputs.subject}}",
      role: "researcher",
      skills: ["web.search", "web.fetch", "docs.write_markdown"],
      instruction:
        "For {{inputs.subject}}, look up each option:\n{{inputs.options}}\n\nagainst these criteria:\n{{inputs.criteria}}\n\n" +
        "Prefer the vendors' own pages and recent independent reviews; note every fact with its link and its date. " +
        "Save the notes as research/options.md.",
      deliverable: { file: "research/options.md", minSourceLinks: 2 }
    },
    {
      id: "table",
      title: "Score the options",
      role: "analyst",
      skills: ["files.read", "math.evaluate", "files.write"],
      instruction:
        "From the notes, score each option 1 to 5 on each criterion; where weights are wanted ({{inputs.useWeights}}) use these:\n" +
        "{{inputs.weights}}\nand compute each weighted total with math.evaluate.\n\nNotes:\n{{steps.research.output}}\n\n" +
        "Save the table as comparison.csv: one row an option, one column a criterion, then total.",
      outputKind: "data",
      deliverable: { file: "comparison.csv" }
    },
    {
      id: "writeup",
      title: "Write up the comparison",
      role: "writer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Write the comparison of {{inputs.subject}}: the table from comparison.csv as a markdown table, a recommendation for who " +
        "should pick which option, and the sources.\n\nScores:\n{{steps.table.output}}\n\nSave it as comparison.md.",
      dependsOn: ["research"],
      deliverable: { file: "comparison.md", requireSections: ["Table", "Recommendation", "Sources"], minSourceLinks: 2 }
    }
  ],
  outputKinds: ["markdown", "data"]
}
