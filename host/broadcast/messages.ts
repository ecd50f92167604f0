/**
 * What processes sharing one PostgreSQL tell each other (broadcast.ts): an event of the bus for
 * their own sockets, and the writes their session caches must hear of. Each message carries the
 * id of the process that sent it, so a process skips its own.
 */
import * as Schema from "effect/Schema"
import type { Audience } from "../../kernel/contract/events.ts"
import type { BroadcastMessage } from "../../kernel/contract/broadcast.ts"
import { BeingChanged, SessionsEnded } from "../../extensions/accounts/contract/broadcasts.ts"
import { BindingsChanged } from "../../extensions/models/contract/broadcasts.ts"
import { PublishedEvent } from "../contract/events.ts"
import { McpClientRevoked } from "../../extensions/mcp/contract/broadcasts.ts"

const AudienceSchema = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("being"), beingId: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("topic"), topic: Schema.String }),
  Schema.Struct({ kind: Schema.Literal("all") })
)
// The kernel's Audience stays the one definition: this schema must describe exactly it.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const audienceMatches: Same<Audience, typeof AudienceSchema.Type> = true
void audienceMatches

/** An event published on the bus of the sending process. */
const EventMessage = Schema.Struct({ kind: Schema.Literal("event"), audience: AudienceSchema, event: PublishedEvent })
/** A connection's sealed secret was written (connect, edit, renewal, disconnect): others reload that row. */
const SecretChanged = Schema.Struct({
  kind: Schema.Literal("connection.secret-changed"),
  beingId: Schema.String,
  provider: Schema.String
})
/** A plugin installed or removed by the sending process: the others load or drop it from its row. */
const PluginInstalled = Schema.Struct({ kind: Schema.Literal("plugin.installed"), id: Schema.String })
const PluginRemoved = Schema.Struct({ kind: Schema.Literal("plugin.removed"), id: Schema.String })
/** A timer (kernel/actors/wakes.ts) has work now: the process running it takes it at once. */
const Wake = Schema.Struct({ kind: Schema.Literal("wake"), timer: Schema.String })

// What the host's relays (the bus, and the ports of *-relay.ts) send, added to the channel's registry.
declare module "../../kernel/contract/broadcast.ts" {
  interface BroadcastMessages {
    event: typeof EventMessage.Type
    "connection.secret-changed": typeof SecretChanged.Type
    "plugin.installed": typeof PluginInstalled.Type
    "plugin.removed": typeof PluginRemoved.Type
    wake: typeof Wake.Type
  }
}

export const BroadcastBody = Schema.Union(
  EventMessage,
  SessionsEnded,
  BeingChanged,
  BindingsChanged,
  SecretChanged,
  PluginInstalled,
  PluginRemoved,
  Wake,
  McpClientRevoked,
  /** A process's own probe at start, to know its LISTEN is in place. */
  Schema.Struct({ kind: Schema.Literal("hello") }),
  /**
   * Never sent: told by a process to its own subscribers when its listen connection is back after
   * a drop. What others sent meanwhile is lost, so every copy of their writes is dropped.
   */
  Schema.Struct({ kind: Schema.Literal("listen.resumed") })
)
export type BroadcastBody = typeof BroadcastBody.Type

// The schema and the kernel's registry must hold the same messages (a kind sent but not decoded would be lost).
const bodyMatchesRegistry: Same<BroadcastBody, BroadcastMessage> = true
void bodyMatchesRegistry

/** On the channel: the body with its sender, or (too large for NOTIFY) the id of its overflow row. */
export const Envelope = Schema.Union(
  Schema.Struct({ origin: Schema.String, body: BroadcastBody }),
  Schema.Struct({ origin: Schema.String, overflow: Schema.String })
)
export type Envelope = typeof Envelope.Type
