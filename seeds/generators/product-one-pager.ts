/** A product one-pager: a look at the market, then the page, then a reviewer's pass. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const productOnePager: GeneratorSeed = {
  slug: "product-one-pager",
  name: "Product one-pager",
  description: "One page that says what your product is, who it is for and why it wins, checked against the market.",
  icon: "📄",
  inputsSchema: {
    type: "object",
    required: ["productName", "problem"],
    additionalProperties: false,
    properties: {
      productName: { type: "string", title: "Product", minLength: 1, maxLength: 120, "x-placeholder": "Tidy" },
      problem: {
        type: "string",
        title: "The problem it solves",
        minLength: 10,
        maxLength: 2000,
        "x-multiline": true,
        "x-placeholder": "Small landlords lose hours every month chasing rent by hand."
      },
      audience: { type: "string", title: "Who it is for", maxLength: 300, default: "the people who have that problem" },
      differentiators: {
        type: "string",
        title: "What makes it different",
        description: "One a line.",
        maxLength: 2000,
        "x-multiline": true
      },
      pricing: {
        type: "string",
        title: "Pricing",
        maxLength: 300,
        "x-advanced": true,
        "x-placeholder": "$9 a month per property"
      },
      compareCompetitors: { type: "boolean", title: "Compare with competitors", default: true },
      competitors: {
        type: "string",
        title: "Competitors to look at",
        description: "One a line; leave empty to let the researcher find them.",
        maxLength: 1000,
        "x-multiline": true,
        "x-showWhen": "compareCompetitors"
      }
    }
  },
  steps: [
    {
      id: "market",
      title: "Look at the market for {{inputs.productName}}",
      role: "researcher",
      skills: ["web.search", "web.fetch", "docs.write_markdown"],
      instruction:
        "Find how {{inputs.audience}} deal with this problem today: {{inputs.problem}}\n\nWhether to compare competitors: " +
        "{{inputs.compareCompetitors}}. Competitors named: {{inputs.competitors}}. For each alternative note what it does, what it " +
        "costs and its weak spot, with links. Save the notes as research/market.md.",
      deliverable: { file: "research/market.md", minSourceLinks: 2 }
    },
    {
      id: "pager",
      title: "Write the one-pager for {{inputs.productName}}",
      role: "marketer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Write the one-pager of {{inputs.productName}} for {{inputs.audience}}. The problem: {{inputs.problem}}\n" +
        "What makes it different:\n{{inputs.differentiators}}\nPricing: {{inputs.pricing}}\n\nMarket notes:\n{{steps.market.output}}\n\n" +
        "Sections: The problem, What it does, Who it is for, Why it wins, Pricing. Concrete claims only, no superlatives the notes do " +
        "not back. Save it as one-pager.md with a title in its frontmatter.",
      tier: "standard",
      deliverable: {
        file: "one-pager.md",
        frontmatter: ["title"],
        words: { target: 450, tolerance: 0.3 },
        requireSections: ["The problem", "What it does", "Who it is for", "Why it wins", "Pricing"],
        forbidOpeners: ["Introducing", "Meet"]
      }
    },
    {
      id: "review",
      title: "Review the one-pager",
      role: "reviewer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Read one-pager.md as a sceptical buyer from {{inputs.audience}}. Note every claim the market notes do not support, " +
        "every unclear sentence, and what a buyer would still ask. Save the notes as review.md with the sections Verdict and Fixes.",
      dependsOn: ["pager"],
      deliverable: { file: "review.md", requireSections: ["Verdict", "Fixes"] }
    }
  ],
  outputKinds: ["markdown"]
}
