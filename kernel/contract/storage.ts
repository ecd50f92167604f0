/**
 * The key-value storage a plugin keeps for each being (the `storage` capability's adapter, a
 * module's bridge, a paired seed): its bounds and its refusals. One store per scope (a plugin's
 * id; a seed's `seed:<did>`) and being, so no caller reads another's keys or another being's.
 * Here so the HTTP contract (the bridge's refusals) and the kernel's store share them.
 */
import * as Schema from "effect/Schema"
import { refusal } from "./errors.ts"

/** One stored value, as JSON. */
export const maxStorageValueBytes = 16 * 1024
/** Keys one scope keeps for one being. */
export const maxStorageKeys = 500
/** Bytes one scope keeps for one being: every key and value, as UTF-8 (values as JSON). */
export const maxStorageBytes = 1024 * 1024
/** A key's length, in characters. */
export const maxStorageKeyLength = 200

export const StorageKey = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(maxStorageKeyLength))

/** A stored value over the size one value may have. */
export class StoredValueTooLarge extends refusal(413, "StoredValueTooLarge", "payload_too_large") {}
/** A new key in a storage that holds the most keys it may, or a value that would take it past its bytes. */
export class StorageFull extends refusal(409, "StorageFull", "storage_full") {}
