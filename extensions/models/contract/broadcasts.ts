/** What the models tell the other processes sharing the database (kernel/contract/broadcast.ts). */
import * as Schema from "effect/Schema"

/** A provider or a tier binding changed in Settings → Models: every process reads them again. */
export const BindingsChanged = Schema.Struct({ kind: Schema.Literal("models.bindings-changed") })

declare module "../../../kernel/contract/broadcast.ts" {
  interface BroadcastMessages {
    "models.bindings-changed": typeof BindingsChanged.Type
  }
}
