/**
 * The key-value store behind the `storage` capability and the bridge's storage.* methods: one set
 * of keys per scope (a plugin's id; a seed's `seed:<did>`) and being, held to the bounds in
 * kernel/contract/storage.ts (a value's size, the keys and the bytes one scope keeps for one
 * being). A plugin's skills and its module's page share one store: the same plugin, the same being.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { JsonValue } from "../contract/json.ts"
import {
  maxStorageBytes,
  maxStorageKeyLength,
  maxStorageKeys,
  maxStorageValueBytes,
  StorageFull,
  StorageKey,
  StoredValueTooLarge
} from "../contract/storage.ts"
import { orDieOnStorageFault } from "../repository.ts"
import { BridgeStorageRepository } from "./bridge-storage-repository.ts"
import { refused, refusedWithMessage } from "./capability-refused.ts"
import type { CallScope, PluginIdentity } from "./context.ts"
import type { KeyValueAdapter } from "./storage-adapter.ts"

/** Whose keys: a scope and a being. */
export interface StorageOwner {
  readonly scope: string
  readonly beingId: string
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8")

export class KeyValueStorage extends Effect.Service<KeyValueStorage>()("kernel/KeyValueStorage", {
  dependencies: [BridgeStorageRepository.Default],
  effect: Effect.gen(function* () {
    const storage = yield* BridgeStorageRepository
    const sql = yield* SqlClient.SqlClient

    const get = (owner: StorageOwner, key: string) =>
      Effect.map(storage.get({ ...owner, key }), (found) => (Option.isSome(found) ? found.value.value : null))

    /** Writes one value within the bounds, checked in the write's transaction; a refusal writes nothing. */
    const set = (owner: StorageOwner, key: string, value: JsonValue) =>
      Effect.gen(function* () {
        const size = byteLength(JSON.stringify(value) ?? "")
        if (size > maxStorageValueBytes) {
          return yield* new StoredValueTooLarge({
            message: `A stored value may be at most ${maxStorageValueBytes / 1024} KB as JSON.`,
            details: { limitBytes: maxStorageValueBytes }
          })
        }
        const previous = yield* storage.get({ ...owner, key })
        if (Option.isNone(previous) && (yield* Effect.orDie(storage.count(owner))).count >= maxStorageKeys) {
          return yield* new StorageFull({
            message: `This storage holds ${maxStorageKeys} keys already: delete some first.`,
            details: { maxKeys: maxStorageKeys }
          })
        }
        const freed = Option.match(previous, {
          onNone: () => 0,
          onSome: (found) => byteLength(key) + byteLength(JSON.stringify(found.value))
        })
        const held = (yield* Effect.orDie(storage.bytes(owner))).count - freed
        if (held + byteLength(key) + size > maxStorageBytes) {
          return yield* new StorageFull({
            message: `This storage may hold ${maxStorageBytes / 1024} KB and holds ${Math.ceil(held / 1024)} KB: delete some first.`,
            details: { maxBytes: maxStorageBytes, heldBytes: held }
          })
        }
        const updatedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* storage.put({ ...owner, key, value, updatedAt })
        return { key }
      }).pipe(sql.withTransaction, orDieOnStorageFault)

    /** Keys starting with `prefix`, in key order. */
    const list = (owner: StorageOwner, prefix: string) =>
      Effect.map(storage.keys({ ...owner, prefix, limit: maxStorageKeys }), (rows) => rows.map((row) => row.key))

    const remove = (owner: StorageOwner, key: string) =>
      Effect.map(storage.remove({ ...owner, key }), (removed) => removed.length > 0)

    return { get, set, list, remove } as const
  })
}) {}

const checked = <A, I>(schema: Schema.Schema<A, I>, what: string, value: unknown) =>
  Effect.mapError(Schema.decodeUnknown(schema)(value), (error) =>
    refused(`${what}: ${ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 200)}`)
  )

const keyOf = (value: unknown) =>
  checked(StorageKey, `A storage key is a string of 1 to ${maxStorageKeyLength} characters`, value)

/** For every plugin: its own keys (scoped by its id) for the being of a call; absent outside a call. */
export const keyValueAdapterFactory = Effect.map(
  KeyValueStorage,
  (store) =>
    (plugin: PluginIdentity, scope: CallScope): KeyValueAdapter | undefined => {
      const beingId = scope.beingId
      if (beingId === null) return undefined
      const owner = { scope: plugin.id, beingId }
      return {
        get: (key) => Effect.flatMap(keyOf(key), (valid) => store.get(owner, valid)),
        set: (key, value) =>
          Effect.flatMap(
            Effect.all([keyOf(key), checked(JsonValue, "A stored value must be JSON", value)]),
            ([valid, json]) => refusedWithMessage(store.set(owner, valid, json))
          ),
        delete: (key) => Effect.flatMap(keyOf(key), (valid) => store.remove(owner, valid)),
        list: (prefix = "") =>
          Effect.flatMap(
            checked(
              Schema.String.pipe(Schema.maxLength(maxStorageKeyLength)),
              "A prefix is a string of at most 200 characters",
              prefix
            ),
            (valid) => store.list(owner, valid)
          )
      }
    }
)
