import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound, RefusalStatus, refusal } from "../../kernel/contract/errors.ts"

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

describe("a feature's named refusal", () => {
  class HandleTaken extends refusal(409, "HandleTaken", "handle_taken") {}

  it("answers on the wire as its status, with its own code", () => {
    const taken = new HandleTaken({ message: "That handle is taken." })
    expect(Schema.encodeSync(Conflict.schema)(taken)).toEqual({
      error: "handle_taken",
      message: "That handle is taken."
    })
    expect(Schema.encodeUnknownEither(NotFound.schema)(taken)._tag).toBe("Left")
    expect(Schema.encodeSync(Schema.Union(NotFound.schema, Conflict.schema))(taken).error).toBe("handle_taken")
  })

  it("keeps its status off its own fields, so it logs and compares as the wire does", () => {
    const taken = new HandleTaken({ message: "That handle is taken." })
    expect(taken[RefusalStatus]).toBe(409)
    expect(Object.getOwnPropertySymbols(taken)).not.toContain(RefusalStatus)
  })

  it.effect("is caught by its own tag", () =>
    Effect.gen(function* () {
      const caught = yield* new HandleTaken({ message: "x" }).pipe(
        Effect.catchTag("HandleTaken", (error) => Effect.succeed(error.error))
      )
      expect(caught).toBe("handle_taken")
    })
  )
})
