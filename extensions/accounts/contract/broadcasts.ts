/**
 * What the accounts tell the other processes sharing the database (kernel/contract/broadcast.ts),
 * so their session caches and sockets follow this process's writes.
 */
import * as Schema from "effect/Schema"

/** Sessions deleted (logout, logout everywhere, reset, removal, expiry): caches drop them, sockets close. */
export const SessionsEnded = Schema.Struct({ kind: Schema.Literal("sessions.ended"), ids: Schema.Array(Schema.String) })
/** A `beings` row written: caches drop that being's sessions. */
export const BeingChanged = Schema.Struct({ kind: Schema.Literal("being.changed"), beingId: Schema.String })

declare module "../../../kernel/contract/broadcast.ts" {
  interface BroadcastMessages {
    "sessions.ended": typeof SessionsEnded.Type
    "being.changed": typeof BeingChanged.Type
  }
}
