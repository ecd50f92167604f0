/** The project's events, to its owner: the project, a task, a line of its trace. */
import { event } from "../../../kernel/contract/events.ts"
import { Project, Task, TraceEvent } from "./records.ts"

export const TaskUpdated = event("task.updated", { task: Task })
export const ProjectUpdated = event("project.updated", { project: Project })
export const Trace = event("trace", { event: TraceEvent })

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "task.updated": typeof TaskUpdated.Type
    "project.updated": typeof ProjectUpdated.Type
    trace: typeof Trace.Type
  }
}
