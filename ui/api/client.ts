/**
 * The typed client of the node's HTTP contract (`NodeApi`), and `request`, which runs one call
 * and answers either its value or a failure told in words: the ApiError's `message` when the
 * node refused, else a sentence about what went wrong on the way. The session travels as the
 * httpOnly `svc_session` cookie, so requests go same-origin with credentials.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { fetchHttpClient, type NodeClient, nodeClient } from "../../host/contract/client.ts"
import {
  Conflict,
  Forbidden,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  Unauthorized,
  Unavailable,
  UnsupportedMediaType
} from "../../kernel/contract/errors.ts"
import { fireEvent } from "../shell/events.ts"

export type { NodeClient }

/** Requests go same-origin; the session cookie travels with them (`RequestInit` below). */
const client = nodeClient(fetchHttpClient, "")

export interface Failure {
  /** The HTTP status, or null when no answer came (network) or the request never left. */
  readonly status: number | null
  /** The ApiError's `error` code, or a code of the app's own ("network", "form", …). */
  readonly code: string
  /** What to tell the person. */
  readonly message: string
}

export type Result<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly failure: Failure }

const apiErrorClasses = [
  [InvalidRequest, 400],
  [Unauthorized, 401],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [PayloadTooLarge, 413],
  [UnsupportedMediaType, 415],
  [RateLimited, 429],
  [Unavailable, 503]
] as const

/** The body every refusal carries, read from answers the contract did not declare (a 500). */
const ApiErrorBody = Schema.Struct({ error: Schema.String, message: Schema.String })

const waitMessage = "Too many requests. Wait a minute, then try again."

const statusMessage = (status: number): string =>
  status === 429
    ? waitMessage
    : status >= 500
      ? `The node failed to answer (status ${status}). Try again in a moment.`
      : `The node refused the request (status ${status}).`

const isTagged = (error: unknown, tag: string): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === tag

const describeFailure = (error: unknown): Effect.Effect<Failure> => {
  for (const [errorClass, status] of apiErrorClasses) {
    if (error instanceof errorClass) {
      const message =
        status === 429 && !/try again|wait/i.test(error.message) ? `${error.message} ${waitMessage}` : error.message
      return Effect.succeed({ status, code: error.error, message })
    }
  }
  if (ParseResult.isParseError(error)) {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
    const words = issues.map((issue) =>
      issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message
    )
    return Effect.succeed({ status: null, code: "form", message: `Please check the form. ${words.join("; ")}` })
  }
  if (isTagged(error, "ResponseError")) {
    const response = (
      error as { readonly response: { readonly status: number; readonly json: Effect.Effect<unknown, unknown> } }
    ).response
    return response.json.pipe(
      Effect.flatMap(Schema.decodeUnknown(ApiErrorBody)),
      Effect.map((body): Failure => ({ status: response.status, code: body.error, message: body.message })),
      Effect.orElseSucceed(
        (): Failure => ({
          status: response.status,
          code: "unexpected_answer",
          message: statusMessage(response.status)
        })
      )
    )
  }
  if (isTagged(error, "RequestError")) {
    return Effect.succeed({
      status: null,
      code: "network",
      message: "The node did not answer. Check that it is running and that you are online, then try again."
    })
  }
  return Effect.succeed({
    status: null,
    code: "unexpected",
    message: "Something went wrong in the app. Reload the page and try again."
  })
}

/**
 * Runs one call of the contract. A 401 `unauthorized` (no or ended session) is also announced
 * on `window` as `session-lost`, so the shell can send the person to log in.
 */
export const request = <A, E>(call: (client: NodeClient) => Effect.Effect<A, E>): Promise<Result<A>> =>
  Effect.suspend(() => call(client)).pipe(
    Effect.map((value): Result<A> => ({ ok: true, value })),
    Effect.catchAll((error) => Effect.map(describeFailure(error), (failure): Result<A> => ({ ok: false, failure }))),
    Effect.catchAllDefect((defect) =>
      Effect.map(describeFailure(defect), (failure): Result<A> => ({ ok: false, failure }))
    ),
    Effect.tap((result) => {
      if (!result.ok && result.failure.code === "unauthorized") {
        fireEvent(window, "session-lost", { message: result.failure.message })
      }
    }),
    Effect.provideService(FetchHttpClient.RequestInit, { credentials: "same-origin" }),
    Effect.runPromise
  )
