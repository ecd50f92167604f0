/**
 * How every repository is built. SQL lives only in repositories (one per group of tables, beside
 * the feature that owns them); each named operation is an `@effect/sql` `SqlSchema` query whose
 * rows are decoded by a schema, JSON columns included, and is wrapped by `operation` below.
 *
 * The one convention for SQL errors: an operation's error channel never holds a `SqlError` or a
 * `ParseError`. A failing statement or a row that does not match its schema is the node's fault,
 * not the caller's, so both become defects here (a logged 500 with no detail in the body), and
 * service signatures carry only refusals a caller can act on. A constraint the domain relies on
 * (a taken name) is checked inside the repository and answered as a domain value.
 *
 * The column schemas read a value the same way whichever dialect stored it, so the repositories
 * run unchanged on PostgreSQL: SQLite hands back JSON as text and booleans as 0/1, PostgreSQL as
 * parsed values and booleans.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import type { ParseError } from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { spanNamed } from "./spans.ts"

const isStorageFault = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  "_tag" in error &&
  (error._tag === "SqlError" || error._tag === "ParseError")

/** A database failure or an undecodable row becomes a defect; every other error passes through. */
export const orDieOnStorageFault = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseError>, R> =>
  Effect.catchIf(self, isStorageFault, Effect.die) as Effect.Effect<A, Exclude<E, SqlError | ParseError>, R>

/**
 * A repository's named operation: storage faults become defects and the call runs in a span named
 * `<feature>.<operation>` (e.g. `projects.findById`), like every other operation of the node.
 * The span is only made while tracing is on: the node turns it off (host/node.ts), and a span
 * nobody records still cost the session lookup of every signed-in request a sixth of its time.
 */
export const operation = <Args extends ReadonlyArray<unknown>, A, E, R>(
  name: string,
  run: (...args: Args) => Effect.Effect<A, E, R>
) => {
  const inSpan = spanNamed(name)
  return (...args: Args): Effect.Effect<A, Exclude<E, SqlError | ParseError>, R> =>
    inSpan(orDieOnStorageFault(run(...args)))
}

/** A JSON column: text in SQLite (parsed here), a parsed value from PostgreSQL's jsonb; written as JSON text. */
export const JsonColumn = <A, I, R>(schema: Schema.Schema<A, I, R>): Schema.Schema<A, unknown, R> =>
  Schema.compose(
    Schema.transformOrFail(Schema.Unknown, Schema.Unknown, {
      strict: true,
      decode: (stored, _, ast) => {
        if (typeof stored !== "string") return ParseResult.succeed(stored)
        try {
          return ParseResult.succeed(JSON.parse(stored) as unknown)
        } catch {
          return ParseResult.fail(new ParseResult.Type(ast, stored, "a JSON column holds text that is not JSON"))
        }
      },
      encode: (value) => ParseResult.succeed(JSON.stringify(value))
    }),
    Schema.encodedSchema(schema).pipe(Schema.compose(schema)) as unknown as Schema.Schema<A, unknown, R>
  )

/** A boolean column: 0/1 in SQLite, a boolean in PostgreSQL; written as 0/1 (PostgreSQL reads '1' as true). */
export const BooleanColumn = Schema.transform(Schema.Union(Schema.Boolean, Schema.Literal(0, 1)), Schema.Boolean, {
  strict: true,
  decode: (stored) => stored === true || stored === 1,
  encode: (value) => (value ? 1 : 0)
})

/**
 * `column IN (values)`, or a condition no row meets when there are no values (`IN ()` is not SQL):
 * how a statement reads the rows of one page's ids, however few.
 */
export const isIn = (sql: SqlClient.SqlClient, column: string, values: ReadonlyArray<string>) =>
  values.length === 0 ? sql`1 = 0` : sql.in(column, values)
