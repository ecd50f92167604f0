/** A run's notes land in the project's agent thread, for its owner (extensions/threads/agent-threads.ts). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ProjectNotes } from "./notes.ts"
import { AgentThreads } from "../../extensions/threads/contract/agent-threads.ts"

export const ProjectNotesLive = Layer.effect(
  ProjectNotes,
  Effect.map(AgentThreads, (threads) => ({ post: threads.post }))
)
