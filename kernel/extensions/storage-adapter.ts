/**
 * The `storage` capability's adapter as plugin code sees it: the key-value operations every plugin
 * holds in a call (implemented in key-value-storage.ts), and room for a feature's own operations.
 */
import type * as Effect from "effect/Effect"
import type { JsonValue } from "../contract/json.ts"
import type { CapabilityRefused } from "./capability-refused.ts"

/**
 * The `storage` capability's key-value operations, as a plugin gets them: the plugin's own keys for
 * the being of the call. Built-ins `yield*` them; a plugin in an isolate awaits them.
 */
export interface KeyValueAdapter {
  /** The value stored under `key`, or null. */
  readonly get: (key: string) => Effect.Effect<JsonValue, CapabilityRefused>
  /** Refused over a value's size, the keys or the bytes the plugin may keep for the being. */
  readonly set: (key: string, value: unknown) => Effect.Effect<{ readonly key: string }, CapabilityRefused>
  /** Whether there was a value to delete. */
  readonly delete: (key: string) => Effect.Effect<boolean, CapabilityRefused>
  /** The keys starting with `prefix` (every key without one), in key order. */
  readonly list: (prefix?: string) => Effect.Effect<ReadonlyArray<string>, CapabilityRefused>
}

/**
 * The `storage` capability's adapter, typed in the kernel's list (adapters.ts): the operations this
 * plugin and call hold. Every plugin holds the key-value ones in a call for a being; a feature that
 * puts operations of its own under the capability adds them by declaration
 * merging, present only where they apply.
 */
export interface StorageAdapter extends Partial<KeyValueAdapter> {}
