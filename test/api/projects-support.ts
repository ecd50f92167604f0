/** Helpers of the project tests: a small generator, and waiting for a run to settle. */
import type { Client } from "../support/node.ts"

/** Two steps: notes, then a report that reads them through its template. */
export const twoStepGenerator = async (client: Client, overrides: Record<string, unknown> = {}) => {
  const answer = await client.post("/api/studio/generators", {
    name: `Report ${Math.random().toString(36).slice(2, 8)}`,
    description: "Notes, then a report.",
    isPublic: false,
    inputsSchema: { type: "object", required: ["topic"], properties: { topic: { type: "string", minLength: 2 } } },
    outputKinds: ["markdown"],
    steps: [
      { id: "notes", title: "Notes on {{inputs.topic}}", role: "researcher", skills: ["files.write"], instruction: "Take notes on {{inputs.topic}}." },
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
  if (answer.status !== 200) throw new Error(`creating the generator failed: ${answer.text}`)
  return answer.body
}

const finished = new Set(["done", "failed", "cancelled"])

/** Polls the project until its run is over (or `until` holds); answers its detail. */
export const untilSettled = async (client: Client, id: string, until: (detail: any) => boolean = (detail) => finished.has(detail.project.status), timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const answer = await client.get(`/api/studio/projects/${id}`)
    if (answer.status !== 200) throw new Error(`reading the project failed: ${answer.text}`)
    if (until(answer.body)) return answer.body
    if (Date.now() > deadline) throw new Error(`the project did not settle: ${JSON.stringify(answer.body.project)}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
