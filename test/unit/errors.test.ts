import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest } from "../../kernel/contract/errors.ts"

describe("ApiError", () => {
  it("encodes as { error, message, details? } with the named code", () => {
    const refusal = new Conflict({ error: "handle_taken", message: "That handle is taken." })
    expect(Schema.encodeSync(Conflict.schema)(refusal)).toEqual({
      error: "handle_taken",
      message: "That handle is taken."
    })
    expect(Schema.encodeSync(InvalidRequest.schema)(new InvalidRequest({ message: "bad" })).error).toBe(
      "invalid_request"
    )
  })

  it("is told apart by class, not by shape, so each keeps its own status", () => {
    const forbidden = new Forbidden({ message: "no" })
    expect(Schema.encodeUnknownEither(InvalidRequest.schema)(forbidden)._tag).toBe("Left")
    const union = Schema.Union(InvalidRequest.schema, Forbidden.schema)
    expect(Schema.decodeUnknownSync(Forbidden.schema)({ error: "forbidden", message: "no" })).toBeInstanceOf(Forbidden)
    expect(Schema.encodeSync(union)(forbidden)).toEqual({ error: "forbidden", message: "no" })
  })

  it.effect("can be caught by tag", () =>
    Effect.gen(function* () {
      const code = yield* new Conflict({ message: "x" }).pipe(
        Effect.catchTag("Conflict", (error) => Effect.succeed(error.error))
      )
      expect(code).toBe("conflict")
    })
  )
})
