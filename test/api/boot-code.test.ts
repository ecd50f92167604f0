/**
 * The owner's bootstrap code at a start: ensured once (one transaction, the accounts feature's), and the code the
 * start hands on (what the banner prints) is the one a registration spends. Counted from the start's trace: every trace
 * sampled, exported to a test OTLP receiver, flushed when the node closes.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, expect, it } from "vitest"
import { Client, person, run, startNode } from "../support/node.ts"
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.ts"

let collector: OtlpReceiver
beforeAll(async () => {
  collector = await startOtlpReceiver()
})
afterAll(() => collector.close())

it("ensures the owner's code once at a start, and the code it prints registers the owner", async () => {
  const node = await startNode({ otlpEndpoint: Option.some(collector.endpoint), tracesSampleRatio: 1 })
  expect(node.ownerCode).not.toBe("")
  const { being } = await run(new Client(node.url).api.authPublic.register({ payload: person(node.ownerCode) }))
  expect(being.isOwner).toBe(true)
  await node.close()
  expect(collector.spans.filter((span) => span.name === "auth.ensureBootstrap")).toHaveLength(1)
})
