import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { describe, expect, it } from "vitest"
import { clientAddress } from "../../../kernel/http/client-address.ts"

const request = (forwarded?: string) => {
  const headers: Record<string, string> = forwarded === undefined ? {} : { "x-forwarded-for": forwarded }
  return HttpServerRequest.fromWeb(new Request("http://node/api/health", { headers })).modify({
    remoteAddress: "192.168.1.2"
  })
}

describe("clientAddress", () => {
  it("is the socket's address with no trusted proxies, whatever X-Forwarded-For says", () => {
    expect(clientAddress(request("1.2.3.4"), 0)).toBe("192.168.1.2")
  })

  it("is the entry that many places from the right with proxies: the client writes only the left", () => {
    expect(clientAddress(request("6.6.6.6, 1.2.3.4"), 1)).toBe("1.2.3.4")
    expect(clientAddress(request("6.6.6.6,1.2.3.4, 10.0.0.1"), 2)).toBe("1.2.3.4")
    expect(clientAddress(request("1.2.3.4"), 3)).toBe("1.2.3.4")
  })

  it("is the socket's when a trusted proxy sent no X-Forwarded-For", () => {
    expect(clientAddress(request(), 1)).toBe("192.168.1.2")
    expect(clientAddress(request(" , "), 1)).toBe("192.168.1.2")
  })
})
