/**
 * A request's failure as the ApiError the wire carries: a body that does not match its schema is
 * a 400 `invalid_request` with the schema's issues (each bad value clipped) in `details`, an
 * unknown route a 404. The contract's middleware (host/http/api-errors.ts) and raw routes use it.
 */
import * as Predicate from "effect/Predicate"
import { InvalidRequest, NotFound } from "../contract/errors.ts"

export const internalErrorBody = {
  error: "internal",
  message: "Something went wrong on the node. The node's log has the details; try again in a moment."
}

/** A bad value is quoted back up to this many characters: a huge field must not come back whole. */
export const MAX_QUOTED_CHARS = 200

const clip = (text: string) =>
  text.length <= MAX_QUOTED_CHARS ? text : `${text.slice(0, MAX_QUOTED_CHARS)}… (${text.length} characters in all)`

/** The part of a schema message after "actual" is the caller's value; the rest is the schema's words. */
const clipIssueMessage = (message: string) => {
  const at = message.indexOf("actual ")
  return at === -1 ? clip(message) : message.slice(0, at + 7) + clip(message.slice(at + 7))
}

interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const clipIssue = (issue: Issue): Issue => ({
  _tag: issue._tag,
  path: issue.path.map((key) => (typeof key === "string" ? clip(key) : key)),
  message: clipIssueMessage(issue.message)
})

const describeIssue = (issue: Issue) =>
  issue.path.length === 0 ? issue.message : `at ${issue.path.map(String).join(".")}: ${issue.message}`

/** A decode failure or a missing route as its ApiError; anything else as it is. Raw routes use it too. */
export const toApiError = (error: unknown) => {
  if (Predicate.isTagged(error, "HttpApiDecodeError") && Predicate.hasProperty(error, "issues")) {
    // Built from the issues, not the platform's message, which quotes every bad value whole.
    const issues = (error.issues as ReadonlyArray<Issue>).map(clipIssue)
    const first = issues[0] === undefined ? "the body is malformed" : describeIssue(issues[0])
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more in details)` : ""
    return new InvalidRequest({
      message: `The request does not match what this route takes: ${first}${more}`,
      details: issues
    })
  }
  if (Predicate.isTagged(error, "RouteNotFound")) {
    return new NotFound({ message: "There is no such route on this node." })
  }
  return error
}
