/**
 * The bridge: the one allowlisted way a caller outside the node's own code (a module's page in
 * its sandboxed frame; later a paired seed's act) reaches a being's data. A caller names a method
 * and its args, nothing else; whose data it touches (the being) and whose it is (the plugin or
 * seed) come from who is calling, and what it may touch from the capabilities granted to it.
 * Every method needs one capability (skills.invoke: every capability of the skill it runs); a
 * method outside the allowlist is refused before anything is looked up.
 *
 * The tag lives here, beside the method table, so whichever feature calls the bridge imports a
 * contract only; the host implements it (extensions/modules/bridge/bridge.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { SignalInput } from "../../../../actors/being/contract/signal.ts"
import type { CapabilityKind } from "../../../../kernel/contract/capabilities.ts"
import type { ApiError } from "../../../../kernel/contract/errors.ts"
import { JsonValue } from "../../../../kernel/contract/json.ts"
import { StorageKey } from "../../../../kernel/contract/storage.ts"

/** At most this many bytes of args, as JSON. */
export const maxBridgeArgsBytes = 32 * 1024

/** Each method: the capability it needs (null: those of the skill it runs) and its args. */
export const bridgeMethods = {
  "storage.get": { capability: "storage", args: Schema.Struct({ key: StorageKey }) },
  "storage.set": { capability: "storage", args: Schema.Struct({ key: StorageKey, value: JsonValue }) },
  "storage.list": {
    capability: "storage",
    args: Schema.Struct({
      prefix: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(200)), { default: () => "" })
    })
  },
  "storage.delete": { capability: "storage", args: Schema.Struct({ key: StorageKey }) },
  "signals.raise": { capability: "signals", args: SignalInput },
  "memory.search": {
    capability: "memory",
    args: Schema.Struct({
      query: Schema.String.pipe(Schema.maxLength(500)),
      limit: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 50)), { default: () => 10 })
    })
  },
  "skills.invoke": {
    capability: null,
    args: Schema.Struct({
      /** The skill's id inside the caller's own plugin (`recent` for `notebook.recent`). */
      skill: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)),
      input: Schema.optionalWith(Schema.Unknown, { default: () => ({}) })
    })
  }
} as const satisfies Record<
  string,
  { readonly capability: CapabilityKind | null; readonly args: Schema.Schema.AnyNoContext }
>

export type BridgeMethod = keyof typeof bridgeMethods
export const bridgeMethodNames = Object.keys(bridgeMethods) as ReadonlyArray<BridgeMethod>

/** The body of POST /api/modules/:id/:extensionId/call: a method and its args; no being, plugin or installation. */
export const BridgeCallRequest = Schema.Struct({
  method: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)),
  args: Schema.optionalWith(Schema.Unknown, { default: () => ({}) })
})
export type BridgeCallRequest = typeof BridgeCallRequest.Type

/** What a call answers: the method's result, JSON. */
export const BridgeCallResult = Schema.Struct({ result: Schema.Unknown })
export type BridgeCallResult = typeof BridgeCallResult.Type

/** Who is calling, from the caller's own authentication: never from what it sent. */
export interface BridgeCaller {
  /**
   * The being whose data the call reads and writes (the session's; for a seed, the owner's: its signals land on the
   * owner's desktop).
   */
  readonly beingId: string
  /** Whose storage: the plugin's id for a module, `seed:<did>` for a seed. */
  readonly storageScope: string
  /**
   * What the node names as the source of what the call raises or stores (`plugin:<id>`; `seed` for every seed, naming
   * none).
   */
  readonly source: string
  /** The namespace whose skills `skills.invoke` may run (a module's plugin's); null: none. */
  readonly skillNamespace: string | null
}

/**
 * A bridge call's refusal: the bridge's own (../../contract/errors.ts) or one of the services a
 * method calls (a signal that breaks a limit, a busy desktop); a receipt reads it by its status.
 */
export type BridgeError = ApiError

export interface BridgeShape {
  /** Runs one allowlisted method for `caller`, within `granted`; refuses anything else plainly. */
  readonly call: (
    caller: BridgeCaller,
    granted: ReadonlyArray<CapabilityKind>,
    method: string,
    args: unknown
  ) => Effect.Effect<unknown, BridgeError>
}

export class Bridge extends Context.Tag("contract/Bridge")<Bridge, BridgeShape>() {}
