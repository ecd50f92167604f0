/**
 * A raw response body that writes itself onto Node's response, for bodies whose best way out is
 * not a stream the server pipes (kernel/http/file-body.ts: a file sent from reused buffers).
 * host/http/server.ts awaits `sendTo` and keeps the request's scope open until it settles;
 * `sendTo` ends the response, or destroys it when it fails half-way; a body that is never sent
 * (a HEAD request, a client gone before the answer) is discarded, which frees what it holds.
 */
import type { ServerResponse } from "node:http"

const selfSending: unique symbol = Symbol.for("host/SelfSendingBody")

export interface SelfSendingBody {
  readonly [selfSending]: true
  readonly sendTo: (outgoing: ServerResponse, signal: AbortSignal) => Promise<void>
  readonly discard: () => Promise<void>
}

export const selfSendingBody = (body: Pick<SelfSendingBody, "sendTo" | "discard">): SelfSendingBody => ({
  [selfSending]: true,
  ...body
})

export const isSelfSending = (body: unknown): body is SelfSendingBody =>
  typeof body === "object" && body !== null && (body as Partial<SelfSendingBody>)[selfSending] === true
