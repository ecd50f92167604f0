/** A task row for the pure tests of the project feature: a pending writer's step, with `fields` over it. */
import type { TaskRecord } from "../../../actors/project/repositories/tasks-repository.ts"

export const taskRecord = (fields: Partial<TaskRecord>): TaskRecord => ({
  id: "t", projectId: "p", parentId: null, key: "k", title: "T", description: "", role: "writer", assigneeAgentId: null, assigneeBeingId: null,
  pinned: false, kind: "work", skills: [], tier: "cheap", dependsOn: [], status: "pending", input: null, output: null, error: null, costUsd: 0,
  startedAt: null, finishedAt: null, dueAt: null, position: 0, instruction: "Do it.", outputKind: "markdown",
  contract: null, template: null, outputText: null, earlierText: null, ...fields
})
