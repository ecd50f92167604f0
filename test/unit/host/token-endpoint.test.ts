/**
 * The OAuth token calls (the code exchange and the refresh) through the node's outbound under the
 * policy handed in: refused on a loopback address when private addresses are not allowed (nothing
 * reaches the endpoint), answered when they are, and an answer past the byte bound refused.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exchangeCode, maxTokenAnswerBytes, refreshTokens } from "../../../extensions/comms/oauth/protocol.ts"
import { makeOutbound } from "../../../kernel/http/outbound.ts"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../../support/google.ts"

const client = { id: clientId, secret: clientSecret }
const strict = makeOutbound({ allowPrivate: false, userAgent: "test" })
const open = makeOutbound({ allowPrivate: true, userAgent: "test" })
const refused =
  /could not reach the feed's token endpoint at 127\.0\.0\.1:\d+: 127\.0\.0\.1 is on a private or local address/

let google: FakeGoogle
beforeAll(async () => {
  google = await startGoogle()
})
afterAll(() => google?.close())

describe("the token endpoint under the node's address policy", () => {
  it("refuses a refresh and a code exchange at a loopback address when private addresses are not allowed, sending nothing", async () => {
    google.state.refreshTokens.add("1//kept")
    const calls = google.tokenCalls.length
    await expect(
      refreshTokens(strict, `${google.url}/token`, client, "1//kept", 0, "the feed's token endpoint")
    ).rejects.toThrow(refused)
    await expect(
      exchangeCode(
        strict,
        `${google.url}/token`,
        client,
        { code: "c", verifier: "v", redirectUri: "http://node/cb" },
        0,
        "the feed's token endpoint"
      )
    ).rejects.toThrow(refused)
    expect(google.tokenCalls.length).toBe(calls)
  })

  it("renews through the same outbound when the policy allows the address", async () => {
    const tokens = await refreshTokens(
      open,
      `${google.url}/token`,
      client,
      "1//kept",
      1000,
      "the feed's token endpoint"
    )
    expect(tokens).toMatchObject({
      accessToken: expect.stringMatching(/^ya29\./),
      refreshToken: "1//kept",
      expiresAt: String(1000 + 3600 * 1000)
    })
  })

  it("refuses an answer longer than the bound, and a redirect is not followed", async () => {
    const server = createServer((request, response) => {
      if (request.url === "/moved") {
        response.writeHead(302, { location: `${google.url}/token` }).end()
        return
      }
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ access_token: "a", refresh_token: "r", padding: "x".repeat(maxTokenAnswerBytes) }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      await expect(refreshTokens(open, `${base}/token`, client, "r", 0, "the feed's token endpoint")).rejects.toThrow(
        `answered with more than ${maxTokenAnswerBytes} bytes`
      )
      const calls = google.tokenCalls.length
      await expect(
        refreshTokens(open, `${base}/moved`, client, "1//kept", 0, "the feed's token endpoint")
      ).rejects.toThrow("the feed's token endpoint refused (302)")
      expect(google.tokenCalls.length).toBe(calls)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
