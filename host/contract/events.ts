/**
 * Every event of the spec's event table as one Schema union, for the socket and the web app to
 * decode each frame with. Each feature declares its own events in its contract (and adds them to
 * the bus's registry, kernel/contract/events.ts); this file only composes them, in the table's
 * order, with the live channel's own greeting.
 */
import * as Schema from "effect/Schema"
import { PresenceUpdate, SignalCreated, SignalUpdated } from "../../actors/being/contract/events.ts"
import { ProjectUpdated, TaskUpdated, Trace } from "../../actors/project/contract/events.ts"
import { event, type BusEvent } from "../../kernel/contract/events.ts"
import { WalletUpdated } from "../../extensions/market/contract/events.ts"
import { Ambient, SquarePost, SquareRetracted } from "../../extensions/souls/contract/events.ts"
import { MessageCreated, MessageDelta, MessageTool, ThreadUpdated } from "../../extensions/threads/contract/events.ts"
import { MemoryCreated, TwinActivity, WidgetSuggest } from "../../extensions/twin/contract/events.ts"

/** The live channel's greeting to a socket it admitted (sent to that socket, never on the bus). */
export const Hello = event("hello", { beingId: Schema.String, serverTime: Schema.String })

/** What the bus carries: every feature's events. */
export const PublishedEvent = Schema.Union(
  SignalCreated,
  SignalUpdated,
  MessageDelta,
  MessageCreated,
  MessageTool,
  ThreadUpdated,
  TaskUpdated,
  ProjectUpdated,
  Trace,
  MemoryCreated,
  WidgetSuggest,
  PresenceUpdate,
  WalletUpdated,
  TwinActivity,
  SquarePost,
  SquareRetracted,
  Ambient
)
export type PublishedEvent = typeof PublishedEvent.Type

export const NodeEvent = Schema.Union(Hello, ...PublishedEvent.members)
export type NodeEvent = typeof NodeEvent.Type

// The union and the bus's registry must hold the same events: one a feature published but left
// out here would be refused by the web app; one listed here but not registered could not be published.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
const unionMatchesBus: Same<PublishedEvent, BusEvent> = true
void unionMatchesBus
