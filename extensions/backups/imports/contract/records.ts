/** What an import answers, and its body limit. */
import * as Schema from "effect/Schema"

export const MAX_IMPORT_BYTES_SETTING = "MAX_IMPORT_BYTES"
export const DEFAULT_MAX_IMPORT_BYTES = 200 * 1024 * 1024

export const ImportResult = Schema.Struct({
  imported: Schema.Struct({
    events: Schema.Number,
    todos: Schema.Number,
    memories: Schema.Number,
    threads: Schema.Number
  }),
  /** What was already there (a note of the same content) and left as it was. */
  skipped: Schema.Number,
  /** Each file or entry that could not be read, named, with why. */
  problems: Schema.Array(Schema.String)
})
export type ImportResult = typeof ImportResult.Type
