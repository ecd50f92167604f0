/** A week planned from goals and the hours there are: the arithmetic first, then the plan. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const weeklyPlan: GeneratorSeed = {
  slug: "weekly-plan",
  name: "Weekly plan",
  description:
    "Turn this week's goals into a day-by-day plan that fits the hours you really have, with a buffer for surprises.",
  icon: "🗓️",
  inputsSchema: {
    type: "object",
    required: ["goals"],
    additionalProperties: false,
    properties: {
      goals: {
        type: "string",
        title: "Goals for the week",
        description: "One a line, most important first.",
        minLength: 3,
        maxLength: 4000,
        "x-multiline": true,
        "x-placeholder": "Ship the pricing page\nInterview two candidates"
      },
      hoursAvailable: { type: "number", title: "Hours available", minimum: 1, maximum: 80, default: 30 },
      workStyle: {
        type: "string",
        title: "Work style",
        enum: ["deep mornings", "steady", "short sprints"],
        default: "steady"
      },
      fixedCommitments: {
        type: "string",
        title: "Fixed commitments",
        description: "Meetings and errands that cannot move.",
        maxLength: 2000,
        "x-multiline": true,
        "x-advanced": true,
        "x-placeholder": "Tuesday 14:00-15:00 team meeting"
      },
      keepBuffer: { type: "boolean", title: "Keep a buffer for surprises", default: true },
      bufferPercent: {
        type: "integer",
        title: "Buffer (%)",
        minimum: 0,
        maximum: 50,
        default: 15,
        "x-showWhen": "keepBuffer"
      }
    }
  },
  steps: [
    {
      id: "budget",
      title: "Budget the hours",
      role: "analyst",
      skills: ["math.evaluate", "files.write"],
      instruction:
        "Estimate the hours each goal needs:\n{{inputs.goals}}\n\nThere are {{inputs.hoursAvailable}} hours; fixed commitments:\n" +
        "{{inputs.fixedCommitments}}\nKeep a buffer: {{inputs.keepBuffer}}, of {{inputs.bufferPercent}} %. Do every sum with " +
        "math.evaluate. If the goals do not fit, say which to cut or move. Save the budget as hours.csv with the header goal,hours,day.",
      outputKind: "data",
      deliverable: { file: "hours.csv" }
    },
    {
      id: "plan",
      title: "Plan the week",
      role: "lead",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Lay out the week day by day for someone who works in a '{{inputs.workStyle}}' way, from this budget:\n" +
        "{{steps.budget.output}}\n\nUse the sections Priorities, Monday, Tuesday, Wednesday, Thursday, Friday and Risks; each day " +
        "lists its blocks with hours. Save it as weekly-plan.md.",
      deliverable: {
        file: "weekly-plan.md",
        requireSections: ["Priorities", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Risks"]
      }
    }
  ],
  outputKinds: ["markdown", "data"]
}
