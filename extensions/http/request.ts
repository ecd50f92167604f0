/**
 * http.request (its schema is ours): one HTTP exchange of any method, with headers and a body,
 * answered whatever its status. The body comes back as text when it is UTF-8, else as base64, so
 * a binary answer is never mangled. World-acting (the manifest says so): it may change things
 * elsewhere, so it runs only when a human approved this exact call.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { exchange, maxTimeoutMs, RequestBody, requestFields } from "./exchange.ts"

const Input = Schema.Struct({
  ...requestFields,
  body: Schema.optionalWith(RequestBody, { exact: true }).annotations({
    description: "Sent as UTF-8 text; set content-type in headers."
  })
})

const Output = Schema.Struct({
  url: Schema.String.annotations({ description: "Where the answer came from, after redirects." }),
  status: Schema.Int,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({ description: "Lowercase names." }),
  body: Schema.String,
  encoding: Schema.Literal("utf8", "base64").annotations({
    description: "How body is written: UTF-8 text, or base64 for bytes that are not."
  }),
  bytes: Schema.Int.annotations({ description: "Bytes of the (decompressed) body read." }),
  truncated: Schema.Boolean.annotations({ description: "The body was longer than maxBytes and was cut there." })
})

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

const bodyOf = (bytes: Uint8Array): { readonly body: string; readonly encoding: "utf8" | "base64" } => {
  try {
    return { body: strictUtf8.decode(bytes), encoding: "utf8" }
  } catch {
    return { body: Buffer.from(bytes).toString("base64"), encoding: "base64" }
  }
}

export const request = defineSkill({
  description:
    "Send an HTTP request (any method, headers, body) and answer the status, headers and body. Acts on the world: needs approval.",
  input: Input,
  output: Output,
  timeoutMs: maxTimeoutMs + 5_000,
  run: (input, context) =>
    Effect.gen(function* () {
      const response = yield* exchange("http.request", input, context)
      return {
        url: response.url,
        status: response.status,
        headers: response.headers,
        ...bodyOf(response.body),
        bytes: response.body.length,
        truncated: response.truncated
      }
    })
})
