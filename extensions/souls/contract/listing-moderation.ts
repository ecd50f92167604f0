/**
 * The port moderation pauses listings through. The market owns listings; this node's market is
 * built beside moderation, so it binds this reference (`Layer.succeed(ListingModeration, ...)`)
 * when it lands. Unbound, no listing exists, and every id answers 404 — the truth on a node
 * without a market.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { NotFound } from "../../../kernel/contract/errors.ts"

/** A listing's state after a moderation act: the market's own status word (`paused`, `active`...). */
export const ListingState = Schema.Struct({ id: Schema.String, status: Schema.String })
export type ListingState = typeof ListingState.Type

export interface ListingModerationShape {
  /** Takes the listing out of search and buying until resumed; NotFound for an unknown id. */
  readonly pause: (listingId: string) => Effect.Effect<ListingState, NotFound>
  readonly resume: (listingId: string) => Effect.Effect<ListingState, NotFound>
}

const noListing = (id: string) => Effect.fail(new NotFound({ message: "There is no listing with that id.", details: { id } }))

export class ListingModeration extends Context.Reference<ListingModeration>()("souls/ListingModeration", {
  defaultValue: (): ListingModerationShape => ({ pause: noListing, resume: noListing })
}) {}
