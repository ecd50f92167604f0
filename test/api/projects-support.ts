/** Helpers of the project tests: a small generator, and waiting for a run to settle. */
import * as Schema from "effect/Schema"
import type { ProjectDetail } from "../../actors/project/contract/records.ts"
import { GeneratorInput } from "../../extensions/generators/contract/generator.ts"
import { type Client, run } from "../support/node.ts"
import { until } from "../support/until.ts"

/** Two steps: notes, then a report that reads them through its template. */
export const twoStepGenerator = (client: Client, overrides: Record<string, unknown> = {}) =>
  run(
    client.api.studioGenerators.createGenerator({
      payload: Schema.decodeUnknownSync(GeneratorInput)({
        name: `Report ${Math.random().toString(36).slice(2, 8)}`,
        description: "Notes, then a report.",
        isPublic: false,
        inputsSchema: { type: "object", required: ["topic"], properties: { topic: { type: "string", minLength: 2 } } },
        outputKinds: ["markdown"],
        steps: [
          {
            id: "notes",
            title: "Notes on {{inputs.topic}}",
            role: "researcher",
            skills: ["files.write"],
            instruction: "Take notes on {{inputs.topic}}."
          },
          {
            id: "report",
            title: "Report on {{inputs.topic}}",
            role: "writer",
            skills: ["files.write"],
            instruction: "Write a report on {{inputs.topic}} from these notes:\n{{steps.notes.output}}"
          }
        ],
        ...overrides
      })
    })
  )

/** A draft saved as draft.md, then an edit that revises it (its deliverable's fields over `{ revises: "draft.md" }`). */
export const draftThenEditSteps = (edit: Record<string, unknown> = {}) => [
  {
    id: "draft",
    title: "Draft on {{inputs.topic}}",
    role: "researcher",
    skills: ["files.write"],
    instruction: "Draft it.",
    deliverable: { file: "draft.md" }
  },
  {
    id: "edit",
    title: "Edit on {{inputs.topic}}",
    role: "editor",
    skills: ["files.write"],
    dependsOn: ["draft"],
    instruction: "Tighten the draft.",
    deliverable: { revises: "draft.md", ...edit }
  }
]

const finished = new Set(["done", "failed", "cancelled"])

/** Polls the project until its run is over (or `until` holds); answers its detail. */
export const untilSettled = async (
  client: Client,
  id: string,
  settled: (detail: ProjectDetail) => boolean = (detail) => finished.has(detail.project.status),
  timeoutMs = 20_000
): Promise<ProjectDetail> => {
  let last: ProjectDetail | undefined
  return until(
    () => `the project to settle: ${JSON.stringify(last?.project)}`,
    async () => {
      last = await run(client.api.studioProjects.getProject({ path: { id } }))
      return settled(last) && last
    },
    timeoutMs,
    25
  )
}

/** Starts a run of a generator with these inputs. */
export const startGenerator = (client: Client, generatorId: string, inputs: Record<string, unknown>) =>
  run(client.api.studioProjects.createProject({ payload: { generatorId, inputs } }))

/**
 * Starts a run of a brief. A scripted plan without a research task comes back one task longer, by design: plan repair
 * puts a research task first (the first document's "guarantee that a research task exists"; repairPlan in
 * actors/project/contract/plan.ts), so six writers' tasks run as seven.
 */
export const startBrief = (client: Client, brief: string) =>
  run(client.api.studioProjects.createProject({ payload: { brief } }))
