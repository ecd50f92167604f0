/**
 * Makes every failure of the contract an ApiError: a body that does not match its schema is a
 * 400 `invalid_request` with the schema's issues in `details`; an unknown /api route is a 404;
 * a defect is a 500 whose body says what to do and whose cause goes to the log, never a stack.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import { RateLimited } from "../../kernel/contract/errors.ts"
import { internalErrorBody, toApiError } from "../../kernel/http/api-error.ts"
import { NodeApi } from "../contract/api.ts"
import { refusalResponse } from "../../kernel/http/refusal-response.ts"

const unreadableBody = { error: "invalid_request", message: "The request body could not be read as JSON." }

export const ApiErrorsLive = HttpApiBuilder.middleware(
  NodeApi,
  (app) =>
    app.pipe(
      Effect.mapError(toApiError),
      // A handler's rate limit (a skill call that spends) answers like the policy's, with Retry-After.
      Effect.catchIf(
        (error) => error instanceof RateLimited,
        (error) => Effect.succeed(refusalResponse(429, error))
      ),
      Effect.catchAllDefect((defect) =>
        // The platform could not read the body at all (not JSON, cut off): still the caller's to fix.
        Predicate.isTagged(defect, "RequestError")
          ? Effect.succeed(HttpServerResponse.unsafeJson(unreadableBody, { status: 400 }))
          : Effect.as(
              Effect.logError("A request failed inside the node", Cause.die(defect)),
              HttpServerResponse.unsafeJson(internalErrorBody, { status: 500 })
            )
      )
    ) as typeof app
)
