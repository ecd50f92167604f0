/** A being's rows counted: the one shape of every `count` the twin's repositories answer. */
import type { Statement } from "@effect/sql/Statement"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

const Total = Schema.Struct({ total: Schema.Number })

/** `query` selects `COUNT(*) AS total` for the being; a COUNT answering no row is a storage fault. */
export const beingCount = (name: string, query: (beingId: string) => Statement<object>) => {
  const countOf = SqlSchema.single({ Request: Schema.String, Result: Total, execute: query })
  return operation(name, (beingId: string) =>
    Effect.map(Effect.catchIf(countOf(beingId), Cause.isNoSuchElementException, Effect.die), (row) => row.total)
  )
}
