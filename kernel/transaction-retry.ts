/**
 * Runs a transaction again when PostgreSQL aborted it for a conflict with another one: a
 * serialisation failure (40001) or a deadlock it broke (40P01). Both roll the whole transaction
 * back and say nothing about the request, so the next attempt starts clean and sees what the other
 * committed. SQLite runs one transaction at a time and never raises either. A repository's storage
 * faults are defects (kernel/repository.ts), so the conflict is looked for among the defects.
 */
import { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"

const conflictCodes = new Set(["40001", "40P01"])

const isConflict = (defect: unknown): boolean => {
  const error = defect instanceof SqlError ? defect.cause : defect
  return typeof error === "object" && error !== null && conflictCodes.has(String((error as { code?: unknown }).code))
}

class TransactionConflict extends Data.TaggedError("TransactionConflict")<{ readonly defect: unknown }> {}

/** `transaction` again (up to 5 more times, a few milliseconds apart) while the database aborts it for a conflict. */
export const retryOnConflict = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  transaction.pipe(
    Effect.catchSomeDefect((defect) =>
      isConflict(defect) ? Option.some(Effect.fail(new TransactionConflict({ defect }))) : Option.none()
    ),
    // BEGIN and COMMIT fail with an SqlError rather than a defect.
    Effect.catchIf(
      (error) => error instanceof SqlError && isConflict(error),
      (error) => Effect.fail(new TransactionConflict({ defect: error }))
    ),
    Effect.retry({
      while: (error) => error instanceof TransactionConflict,
      schedule: Schedule.jittered(Schedule.exponential("5 millis")),
      times: 5
    }),
    Effect.catchIf(
      (error) => error instanceof TransactionConflict,
      (conflict) => Effect.die((conflict as TransactionConflict).defect)
    )
  ) as Effect.Effect<A, E, R>
