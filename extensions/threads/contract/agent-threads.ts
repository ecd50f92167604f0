/**
 * A studio project's agent thread, as the project's run writes to it (actors/project/notes-binding.ts):
 * one thread per project, for its owner, titled after the project. Implemented in
 * extensions/threads/agent-threads.ts.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface AgentNote {
  readonly ownerId: string
  readonly projectId: string
  readonly projectTitle: string
  readonly content: string
}

export interface AgentThreadsShape {
  /** Writes the note to the project's thread (made on the first note) and tells the owner's tabs. */
  readonly post: (note: AgentNote) => Effect.Effect<void>
}

export class AgentThreads extends Context.Tag("threads/AgentThreads")<AgentThreads, AgentThreadsShape>() {}
