/**
 * Runs a transaction again when the database aborted it for a conflict with another one: on
 * PostgreSQL a serialisation failure (40001) or a deadlock it broke (40P01); on SQLite shared by two
 * processes, SQLITE_BUSY, which a deferred transaction meets when it read before the other process
 * wrote and then tries to write (SQLITE_BUSY_SNAPSHOT: busy_timeout does not wait that out). Each
 * rolls the whole transaction back and says nothing about the request, so the next attempt starts
 * clean and sees what the other committed. A repository's storage faults are defects
 * (kernel/repository.ts), so the conflict is looked for among the defects.
 */
import { SqlError } from "@effect/sql/SqlError"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"

const conflictCodes = new Set(["40001", "40P01"])

const isConflict = (defect: unknown): boolean => {
  const error = defect instanceof SqlError ? defect.cause : defect
  if (typeof error !== "object" || error === null) return false
  const code = String((error as { code?: unknown }).code)
  return conflictCodes.has(code) || code.startsWith("SQLITE_BUSY")
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
