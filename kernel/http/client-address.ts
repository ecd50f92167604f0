/**
 * The caller's address, which rate limits count by. With TRUST_PROXY hops of proxies in front,
 * it is the X-Forwarded-For entry that many places from the right: each proxy appends the
 * address it heard from, so the entries on the left are whatever the client wrote and only the
 * ones our own proxies added can be believed. With no proxies (0) it is the socket's address.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Option from "effect/Option"

/** What an address is read from: an HTTP request's, or a WebSocket handshake's (host/live/channel.ts). */
export type AddressedRequest = Pick<HttpServerRequest.HttpServerRequest, "remoteAddress" | "headers">

export const clientAddress = (request: AddressedRequest, trustProxyHops: number): string => {
  const socket = Option.getOrElse(request.remoteAddress, () => "unknown")
  if (trustProxyHops === 0) return socket
  const forwarded = (request.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
  if (forwarded.length === 0) return socket
  // Fewer entries than proxies: the request skipped a proxy; its leftmost entry is as far as we can see.
  return forwarded[Math.max(0, forwarded.length - trustProxyHops)]!
}
