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
import { InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { NodeApi } from "../contract/api.ts"

export const internalErrorBody = {
  error: "internal",
  message: "Something went wrong on the node. The node's log has the details; try again in a moment."
}

const toApiError = (error: unknown) => {
  if (Predicate.isTagged(error, "HttpApiDecodeError") && Predicate.hasProperty(error, "issues")) {
    const message = Predicate.hasProperty(error, "message") ? String(error.message) : "the body is malformed"
    return new InvalidRequest({ message: `The request does not match what this route takes: ${message}`, details: error.issues })
  }
  if (Predicate.isTagged(error, "RouteNotFound")) {
    return new NotFound({ message: "There is no such route on this node." })
  }
  return error
}

const unreadableBody = { error: "invalid_request", message: "The request body could not be read as JSON." }

export const ApiErrorsLive = HttpApiBuilder.middleware(NodeApi, (app) =>
  app.pipe(
    Effect.mapError(toApiError),
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
