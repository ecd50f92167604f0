/** A meeting summary from raw notes, with its action items as a table too. */
import type { GeneratorSeed } from "../../extensions/generators/contract/generator.ts"

export const meetingSummary: GeneratorSeed = {
  slug: "meeting-summary",
  name: "Meeting summary",
  description:
    "Paste your notes or a transcript: get the decisions, the action items with owners, and what is still open.",
  icon: "🗒️",
  inputsSchema: {
    type: "object",
    required: ["notes"],
    additionalProperties: false,
    properties: {
      meetingTitle: {
        type: "string",
        title: "Meeting",
        maxLength: 200,
        default: "Meeting",
        "x-placeholder": "Weekly product sync"
      },
      notes: {
        type: "string",
        title: "Notes or transcript",
        minLength: 20,
        maxLength: 60000,
        "x-multiline": true,
        "x-placeholder": "Paste what was said or written down"
      },
      attendees: {
        type: "string",
        title: "Attendees",
        description: "Comma-separated names.",
        maxLength: 500,
        "x-placeholder": "Ana, Ben, Chloé"
      },
      assignUnowned: {
        type: "boolean",
        title: "Give unowned actions a default owner",
        default: false,
        "x-advanced": true
      },
      defaultOwner: {
        type: "string",
        title: "Default owner",
        maxLength: 100,
        "x-showWhen": "assignUnowned",
        "x-advanced": true,
        "x-placeholder": "The meeting's chair"
      }
    }
  },
  steps: [
    {
      id: "actions",
      title: "List the action items of {{inputs.meetingTitle}}",
      role: "analyst",
      skills: ["files.write"],
      instruction:
        "Read these notes of {{inputs.meetingTitle}} (attendees: {{inputs.attendees}}) and list every action item: what, who, by when. " +
        "Use only what the notes say; an unknown owner or date stays empty" +
        " (unless a default owner is wanted: {{inputs.assignUnowned}}, then {{inputs.defaultOwner}}).\n\nNotes:\n{{inputs.notes}}\n\n" +
        "Save them as actions.csv with the header action,owner,due.",
      outputKind: "data",
      deliverable: { file: "actions.csv", maxRepairs: 1 }
    },
    {
      id: "summary",
      title: "Summarise {{inputs.meetingTitle}}",
      role: "writer",
      skills: ["files.read", "docs.write_markdown"],
      instruction:
        "Summarise {{inputs.meetingTitle}} for someone who missed it, from the notes below and the action items found:\n" +
        "{{steps.actions.output}}\n\nUse the sections Summary, Decisions, Action items and Open questions; never add what the notes " +
        "do not say.\n\nNotes:\n{{inputs.notes}}\n\nSave it as summary.md.",
      deliverable: {
        file: "summary.md",
        requireSections: ["Summary", "Decisions", "Action items", "Open questions"],
        words: { target: 450, tolerance: 0.5 },
        forbidOpeners: ["In this meeting"]
      }
    }
  ],
  outputKinds: ["markdown", "data"]
}
