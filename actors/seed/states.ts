/**
 * The seed's pure core: whether a document is fresh (its sequence above the last, its nonce the
 * one the node issued), an owner's edit, and how a delegated act's string args become a bridge
 * call (docs/federation.md "Seeds" lists each method's args).
 */
import type { SeedGrant, SeedRefusalCode, SeedUpdate } from "../../extensions/federation/contract/seeds.ts"
import { MAX_SEED_ARGS } from "../../extensions/federation/contract/seeds.ts"
import type { StoredSeed } from "./seeds-repository.ts"

export interface Refusal {
  readonly code: SeedRefusalCode
  readonly reason: string
  readonly basis: "nonce" | "sequence" | "none"
}

/**
 * The sequence first (a replayed document is caught there), then the nonce (a document made before the last one was
 * accepted).
 */
export const staleness = (
  seed: StoredSeed,
  document: { readonly seq: number; readonly nonce: string }
): Refusal | null => {
  if (document.seq <= seed.seq) {
    return { code: "replayed", basis: "sequence", reason: `The sequence number must be above ${seed.seq}.` }
  }
  if (document.nonce !== seed.nonce) {
    return {
      code: "stale_nonce",
      basis: "nonce",
      reason: "The nonce is not the one this node issued last: knock, or use the last receipt's."
    }
  }
  return null
}

export const afterUpdate = (seed: StoredSeed, update: SeedUpdate): StoredSeed => ({
  ...seed,
  name: update.name ?? seed.name,
  grants: update.grants === undefined ? seed.grants : ordered(update.grants),
  status: update.blocked === undefined ? seed.status : update.blocked ? "blocked" : "paired"
})

/** Each grant once, signals before storage, whatever order the owner sent them in. */
export const ordered = (grants: ReadonlyArray<SeedGrant>): ReadonlyArray<SeedGrant> =>
  (["signals", "storage"] as const).filter((grant) => grants.includes(grant))

/** The bridge methods a seed may be delegated, by capability, with how its string args map onto the method's. */
const delegable: Record<SeedGrant, Record<string, (args: ReadonlyArray<string>) => Record<string, unknown> | null>> = {
  storage: {
    "storage.get": ([key, ...rest]) => (key === undefined || rest.length > 0 ? null : { key }),
    "storage.set": ([key, value, ...rest]) =>
      key === undefined || value === undefined || rest.length > 0 ? null : { key, value },
    "storage.list": ([prefix, ...rest]) => (rest.length > 0 ? null : { prefix: prefix ?? "" }),
    "storage.delete": ([key, ...rest]) => (key === undefined || rest.length > 0 ? null : { key })
  },
  signals: {
    "signals.raise": ([title, body, kind]) =>
      title === undefined
        ? null
        : { title, ...(body === undefined ? {} : { body }), ...(kind === undefined ? {} : { kind }) }
  }
}

export type Delegation = { readonly method: string; readonly args: Record<string, unknown>; readonly grant: SeedGrant }

/**
 * The bridge call an act asks for, or why not: withheld capability, ungranted, no such method, args that do not fit.
 */
export const delegationOf = (
  grants: ReadonlyArray<SeedGrant>,
  act: { readonly capability: string; readonly method: string; readonly args: ReadonlyArray<string> }
): Delegation | Refusal => {
  if (act.capability !== "signals" && act.capability !== "storage") {
    return {
      code: "capability_withheld",
      basis: "none",
      reason: `A seed may be delegated signals and storage only, never ${act.capability.slice(0, 40)}.`
    }
  }
  if (!grants.includes(act.capability)) {
    return { code: "not_granted", basis: "none", reason: `The owner has not granted this seed ${act.capability}.` }
  }
  const methods = delegable[act.capability]
  const map = Object.hasOwn(methods, act.method) ? methods[act.method] : undefined
  if (map === undefined) {
    return {
      code: "unknown_method",
      basis: "none",
      reason: `${act.capability} has no method "${act.method.slice(0, 64)}" a seed may call.`
    }
  }
  if (act.args.length > MAX_SEED_ARGS) {
    return { code: "bad_args", basis: "none", reason: `An act carries at most ${MAX_SEED_ARGS} args.` }
  }
  const args = map(act.args)
  if (args === null) return { code: "bad_args", basis: "none", reason: `The args do not fit ${act.method}.` }
  return { method: act.method, args, grant: act.capability }
}
