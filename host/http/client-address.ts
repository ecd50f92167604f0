/** The caller's address: the socket's, or the first X-Forwarded-For hop when TRUST_PROXY is set. */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Option from "effect/Option"

export const clientAddress = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  if (trustProxy) {
    const forwarded = request.headers["x-forwarded-for"]
    if (forwarded !== undefined && forwarded !== "") return forwarded.split(",")[0].trim()
  }
  return Option.getOrElse(request.remoteAddress, () => "unknown")
}
