/**
 * The `beings` table as other features reach it: every being of every kind is a row the accounts
 * feature writes (so the session cache hears of each write), and these are the operations the
 * others need. Each runs in the caller's transaction when it has one (a seed's pairing, the
 * citizens' seeding). Storage faults are defects, as in the accounts' own repository.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { BeingPatch, PublicBeing } from "../../souls/contract/records.ts"
import type { HandleTaken, NotOwnAccount } from "./errors.ts"
import type { Being } from "./records.ts"

/** A being that has no account (a citizen, a seed, an agent): its id, handle, name and when it came. */
export interface NewBeing {
  readonly id: string
  readonly handle: string
  readonly displayName: string
  readonly createdAt: string
}

export interface BeingRegistryShape {
  /** The node's owner, once someone has registered as one. */
  readonly findOwner: Effect.Effect<Option.Option<Being>>
  /** A person's account, by being id. */
  readonly findHuman: (id: string) => Effect.Effect<Option.Option<Being>>
  /** Every being of every kind, as all signed-in beings may see it. */
  readonly listPublic: Effect.Effect<ReadonlyArray<PublicBeing>>
  readonly findPublic: (id: string) => Effect.Effect<Option.Option<PublicBeing>>
  /** The beings of these ids that exist, in one read (the names on a page of a list), in no particular order. */
  readonly findPublicMany: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<PublicBeing>>
  /** One's own name and handle (PATCH /api/beings/me): only a person's; a handle someone else holds is a 409. */
  readonly updateProfile: (beingId: string, patch: BeingPatch) => Effect.Effect<Being, NotOwnAccount | HandleTaken>
  /** A citizen raised from a persona at boot, or brought up to date. */
  readonly upsertCitizen: (citizen: NewBeing) => Effect.Effect<void>
  /** A paired seed's being; false when its handle (or id) is taken. */
  readonly insertSeed: (seed: NewBeing) => Effect.Effect<boolean>
  /** A being of kind 'agent' to wear an owner's cards of one persona. */
  readonly raiseAgent: (agent: NewBeing) => Effect.Effect<void>
  /** An agent being's name; never another kind's. */
  readonly renameAgent: (agent: { readonly id: string; readonly displayName: string }) => Effect.Effect<void>
  /** Deletes an agent being; never another kind's. */
  readonly releaseAgent: (id: string) => Effect.Effect<void>
}

export class BeingRegistry extends Context.Tag("accounts/BeingRegistry")<BeingRegistry, BeingRegistryShape>() {}

/** The node's own values that outlive a restart (the `node_meta` table, where the cookie key is kept). */
export interface NodeMetaShape {
  /** The value kept under `key`, storing `value` first if there is none; of two processes, both answer the first. */
  readonly keep: (key: string, value: string) => Effect.Effect<string>
}

export class NodeMeta extends Context.Tag("accounts/NodeMeta")<NodeMeta, NodeMetaShape>() {}
