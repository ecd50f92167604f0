/**
 * What an event of the node is made of, for every feature's contract to declare its own: the wire
 * shape (`{ type, ...payload }`), the audiences, and the registry that types the kernel's bus
 * (kernel/events.ts). The kernel names no event; host/contract/events.ts composes the features'
 * events into the one union the socket and the web app decode.
 */
import * as Schema from "effect/Schema"

/** On the wire an event is `{ type, ...payload }`, as the spec's event table names them. */
export const event = <const Type extends string, Fields extends Schema.Struct.Fields>(type: Type, fields: Fields) =>
  Schema.Struct({ type: Schema.tag(type), ...fields })

/** Who an event is for: one being (every tab of it), a topic's subscribers (a thread), or everyone. */
export type Audience =
  | { readonly kind: "being"; readonly beingId: string }
  | { readonly kind: "topic"; readonly topic: string }
  | { readonly kind: "all" }

/**
 * The events the bus carries, by wire name. Empty here: each feature's contract adds its own by
 * declaration merging, so the bus is typed by every feature's events (a publish is checked
 * against the event it names) while the kernel names none:
 *
 *     declare module "../../../kernel/contract/events.ts" {
 *       interface BusEvents { "square.post": SquarePost }
 *     }
 *
 * host/contract/events.ts checks that its union and this registry hold the same events.
 */
// biome-ignore lint/suspicious/noEmptyInterface: features extend it by declaration merging (a type alias cannot)
export interface BusEvents {}

/** Any event a feature declared. */
export type BusEvent = BusEvents[keyof BusEvents]
