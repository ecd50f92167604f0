import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Conflict, InvalidRequest } from "../../kernel/errors.ts"

describe("ApiError", () => {
  it("encodes as { error, message, details? } with the named code", () => {
    const refusal = new Conflict({ error: "handle_taken", message: "That handle is taken." })
    expect(Schema.encodeSync(Conflict)(refusal)).toEqual({ error: "handle_taken", message: "That handle is taken." })
    expect(Schema.encodeSync(InvalidRequest)(new InvalidRequest({ message: "bad" })).error).toBe("invalid_request")
  })

  it.effect("can be caught by tag", () =>
    Effect.gen(function* () {
      const code = yield* Effect.fail(new Conflict({ message: "x" })).pipe(
        Effect.catchTag("Conflict", (error) => Effect.succeed(error.error))
      )
      expect(code).toBe("conflict")
    }))
})
