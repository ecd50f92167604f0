/**
 * The adapter the studio's authoring skills (studio.author_agent, studio.author_generator) write
 * through. It sits under the `storage` capability: the closed set of kinds has no studio kind,
 * and what these skills do is keep rows in the node's database, rows the caller owns. Nothing
 * leaves the node and nothing runs, so it is not world-acting.
 *
 * The host builds it for each call, and the owner of whatever it writes is the calling being of
 * that call: no input names an owner (one that tries is refused as an unknown field). Only the
 * node's own studio plugin gets it; for any other plugin, and outside a call, it is absent.
 *
 * The kernel types the `storage` capability's key-value operations (kernel/extensions/storage-adapter.ts);
 * this file adds the authoring ones to its adapter by declaration merging, present for the studio only.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"

/**
 * The body of POST /api/studio/agents or POST /api/studio/generators, as JSON. The host decodes it
 * with that route's own schema (plugin code may be plain JavaScript), so it is held to exactly
 * what the route accepts.
 */
export type AuthoringInput = { readonly [field: string]: unknown }

/** What one authoring call came to: the row written, or why none was. */
export type Authored =
  | { readonly authored: true; readonly id: string; readonly name: string }
  | { readonly authored: false; readonly reason: string }

export interface AuthoringAdapter {
  /**
   * Every skill the agent names is checked against the live registry first. A refused record
   * (an unknown skill) succeeds with authored false and writes nothing; it is refused only
   * for a body that does not fit the route's schema or a failure of the node.
   */
  readonly createAgent: (input: AuthoringInput) => Effect.Effect<Authored, CapabilityRefused>
  /** Likewise, by the generator rules (the generators service's validation and slug uniqueness). */
  readonly createGenerator: (input: AuthoringInput) => Effect.Effect<Authored, CapabilityRefused>
}

declare module "../../kernel/extensions/storage-adapter.ts" {
  /** The studio's rows, for its own authoring skills, beside the key-value operations every plugin's storage has. */
  interface StorageAdapter {
    readonly createAgent?: AuthoringAdapter["createAgent"]
    readonly createGenerator?: AuthoringAdapter["createGenerator"]
  }
}
