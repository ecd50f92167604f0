/**
 * The chat request on the wire: a list of tools offered call after call (the Muse's skills) is converted and
 * serialised once, the JSON sent is the whole request, and what the estimate prices is still every character the
 * provider reads.
 */
import { describe, expect, it } from "vitest"
import type { ChatRequest, ToolDefinition } from "../../../extensions/models/contract/chat.ts"
import { promptText, toWireRequest, wireJson } from "../../../extensions/models/wire.ts"

const tools: ReadonlyArray<ToolDefinition> = [
  { name: "math__evaluate", description: "Evaluate.", parameters: { type: "object", properties: {} } },
  { name: "files__list", parameters: { type: "object", properties: { path: { type: "string" } } } }
]
const request = (content: string): ChatRequest => ({
  purpose: "test",
  messages: [
    { role: "system", content: "You are a muse." },
    { role: "user", content }
  ],
  tools
})

describe("the chat request on the wire", () => {
  it("keeps one wire list of tools per list offered, and prices the whole body as sent", () => {
    const first = toWireRequest("model", request("Hello"))
    const second = toWireRequest("model", request("Again"))
    expect(second.tools).toBe(first.tools)
    expect(first.tools).toEqual([
      {
        type: "function",
        function: { name: "math__evaluate", description: "Evaluate.", parameters: tools[0]!.parameters }
      },
      { type: "function", function: { name: "files__list", parameters: tools[1]!.parameters } }
    ])
    for (const body of [first, second]) {
      expect(promptText(body)).toBe(JSON.stringify([body.messages, body.tools, null]))
    }
  })

  it("prices a body without tools, and one with a response format, as their JSON", () => {
    const body = toWireRequest("model", {
      purpose: "test",
      messages: [{ role: "user", content: "JSON please" }],
      responseFormat: { type: "json_object" }
    })
    expect(body.tools).toBeUndefined()
    expect(promptText(body)).toBe(JSON.stringify([body.messages, null, { type: "json_object" }]))
  })

  it("makes a new wire list for a different list of the same tools", () => {
    expect(toWireRequest("model", { ...request("Hi"), tools: [...tools] }).tools).not.toBe(
      toWireRequest("model", request("Hi")).tools
    )
  })

  it("sends the whole request as JSON, with its tools or without", () => {
    const withTools = {
      ...toWireRequest("model", request("Hello")),
      stream: true,
      stream_options: { include_usage: true }
    }
    expect(JSON.parse(wireJson(withTools))).toEqual(withTools)
    const bare = toWireRequest("model", { purpose: "test", messages: [{ role: "user", content: "Hi" }], maxTokens: 5 })
    expect(JSON.parse(wireJson(bare))).toEqual(bare)
  })
})
