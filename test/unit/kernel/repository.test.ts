import * as SqlError from "@effect/sql/SqlError"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { BooleanColumn, JsonColumn, operation } from "../../../kernel/repository.ts"

const Inputs = JsonColumn(Schema.Struct({ words: Schema.Number, due: Schema.DateFromString }))

describe("column schemas", () => {
  it("read a JSON column stored as text (SQLite) and as a parsed value (PostgreSQL) alike", () => {
    const fromText = Schema.decodeUnknownSync(Inputs)('{"words":300,"due":"2026-01-02T00:00:00.000Z"}')
    const fromValue = Schema.decodeUnknownSync(Inputs)({ words: 300, due: "2026-01-02T00:00:00.000Z" })
    expect(fromText).toEqual(fromValue)
    expect(fromText.due).toBeInstanceOf(Date)
    expect(Schema.encodeSync(Inputs)({ words: 1, due: new Date(0) })).toBe(
      '{"words":1,"due":"1970-01-01T00:00:00.000Z"}'
    )
  })

  it("refuse a JSON column that is not JSON or not the schema's shape", () => {
    expect(() => Schema.decodeUnknownSync(Inputs)("{words")).toThrow(/not JSON/)
    expect(() => Schema.decodeUnknownSync(Inputs)('{"words":"many"}')).toThrow()
  })

  it("read booleans stored as 0/1 or as booleans, and write 0/1", () => {
    expect([1, 0, true, false].map((stored) => Schema.decodeUnknownSync(BooleanColumn)(stored))).toEqual([
      true,
      false,
      true,
      false
    ])
    expect(Schema.encodeSync(BooleanColumn)(true)).toBe(1)
    expect(() => Schema.decodeUnknownSync(BooleanColumn)(2)).toThrow()
  })
})

describe("a repository operation", () => {
  class Taken extends Schema.TaggedError<Taken>()("Taken", {}) {}

  it.effect("turns a storage fault into a defect and lets a domain refusal through", () =>
    Effect.gen(function* () {
      const failing = operation(
        "test.insert",
        (fault: boolean): Effect.Effect<never, SqlError.SqlError | Taken> =>
          fault ? Effect.fail(new SqlError.SqlError({ cause: new Error("disk I/O error") })) : Effect.fail(new Taken())
      )
      const fault = yield* Effect.exit(failing(true))
      expect(
        Exit.isFailure(fault) &&
          Exit.causeOption(fault).pipe((cause) => cause._tag === "Some" && cause.value._tag === "Die")
      ).toBe(true)
      const refusal = yield* Effect.flip(failing(false))
      expect(refusal).toBeInstanceOf(Taken)
    })
  )

  it.effect("runs in a span named after it while tracing is on, and makes none while it is off", () =>
    Effect.gen(function* () {
      const spanName = operation("test.find", () =>
        Effect.map(Effect.option(Effect.currentSpan), (span) => span.pipe(Option.map((s) => s.name)))
      )
      expect(yield* spanName()).toEqual(Option.some("test.find"))
      expect(yield* Effect.withTracerEnabled(spanName(), false)).toEqual(Option.none())
    })
  )
})
