/**
 * The souls engine as other features call it: a being's soul made when it has none, the prompt a
 * being's soul compiles to, and an ephemeral agent's prompt (generated from a seed, never stored).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** The being a soul belongs to, as the prompt names it. */
export interface SoulOwner {
  readonly id: string
  readonly displayName: string
}

export interface AgentPromptRequest {
  /** The same seed gives the same soul: the project and the role. */
  readonly seed: string
  readonly name: string
  readonly role: string
  readonly job: string
}

export interface SoulServiceShape {
  /** The being's soul, generated from its id if it had none. */
  readonly ensure: (owner: SoulOwner) => Effect.Effect<void>
  /** The system prompt of the being's soul now, in the voice of `name` (a citizen's mode). */
  readonly promptOf: (owner: SoulOwner, name: string) => Effect.Effect<string>
  /**
   * The system prompt of the being's own soul now, compiled in agent mode for `role` and `job`: a fresh agent carrying
   * a citizen's persona (a citizen's agent listing bought). Generated first if the being had none.
   */
  readonly agentPromptOf: (
    owner: SoulOwner,
    as: { readonly role: string; readonly job: string }
  ) => Effect.Effect<string>
  /**
   * The system prompt of a soul generated from the seed, compiled in agent mode; no model is called, nothing is stored.
   */
  readonly agentPrompt: (request: AgentPromptRequest) => string
}

export class SoulService extends Context.Tag("souls/SoulService")<SoulService, SoulServiceShape>() {}
