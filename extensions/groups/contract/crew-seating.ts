/**
 * What another feature reads of a project's crew: the seats its run draws people from (the
 * project actor's CrewSeats port is bound to it). extensions/groups/crews.ts provides it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Seat } from "./records.ts"

/** A project's crew as a run reads it: its seats, and when the binding last changed. */
export interface CrewSeatsOf {
  readonly changedAt: string
  readonly seats: ReadonlyArray<Seat>
}

export interface CrewSeatingShape {
  /** Null when no crew was ever bound to the project. */
  readonly seatsFor: (projectId: string) => Effect.Effect<CrewSeatsOf | null>
}

export class CrewSeating extends Context.Tag("groups/CrewSeating")<CrewSeating, CrewSeatingShape>() {}
