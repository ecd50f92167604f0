/**
 * http.json (outside the built-in catalogue): the stricter http.request for JSON APIs. A body
 * given as a JSON value is sent as application/json; the answer must be a 2xx whose whole body is
 * JSON, else the call fails saying which. World-acting like http.request: it takes the same
 * arbitrary method, address and body.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../kernel/contract/json.ts"
import { defineSkill, SkillFailure } from "../../kernel/extensions/skill.ts"
import { exchange, maxTimeoutMs, requestFields } from "./exchange.ts"

const maxJsonBodyChars = 1_000_000

const Input = Schema.Struct({
  ...requestFields,
  body: Schema.optionalWith(JsonValue, { exact: true }).annotations({
    description: "A JSON value, sent as application/json."
  })
})

const Output = Schema.Struct({
  url: Schema.String.annotations({ description: "Where the answer came from, after redirects." }),
  status: Schema.Int,
  headers: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({ description: "Lowercase names." }),
  json: JsonValue
})

const jsonType = (contentType: string) => {
  const mediaType = (contentType.split(";")[0] ?? "").trim().toLowerCase()
  return mediaType === "" || mediaType === "application/json" || mediaType.endsWith("+json")
}

const excerpt = (bytes: Uint8Array) => {
  const text = Buffer.from(bytes.subarray(0, 300)).toString("utf8").replace(/\s+/g, " ").trim()
  return text === "" ? "" : `: ${text}`
}

export const json = defineSkill({
  description:
    "Call a JSON API: send a JSON body, answer the parsed JSON. Fails on a non-2xx status or a body that is not JSON. Acts on the world: needs approval.",
  input: Input,
  output: Output,
  timeoutMs: maxTimeoutMs + 5_000,
  run: (input, context) =>
    Effect.gen(function* () {
      const body = input.body === undefined ? undefined : JSON.stringify(input.body)
      if (body !== undefined && body.length > maxJsonBodyChars) {
        return yield* new SkillFailure({
          message: `http.json sends at most ${maxJsonBodyChars} characters of JSON; this body has ${body.length}.`
        })
      }
      const headers = {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...input.headers
      }
      const response = yield* exchange("http.json", { ...input, headers, body }, context)
      if (response.status < 200 || response.status > 299) {
        return yield* new SkillFailure({
          message: `http.json: ${response.url} answered ${response.status}, not a 2xx${excerpt(response.body)}`
        })
      }
      const contentType = response.headers["content-type"] ?? ""
      if (!jsonType(contentType)) {
        return yield* new SkillFailure({
          message: `http.json: ${response.url} answered ${contentType}, not JSON${excerpt(response.body)}`
        })
      }
      if (response.truncated) {
        return yield* new SkillFailure({
          message: `http.json: the answer from ${response.url} is longer than maxBytes (${input.maxBytes}); raise it to read it whole.`
        })
      }
      try {
        return {
          url: response.url,
          status: response.status,
          headers: response.headers,
          json: JSON.parse(Buffer.from(response.body).toString("utf8")) as JsonValue
        }
      } catch {
        return yield* new SkillFailure({
          message: `http.json: the answer from ${response.url} is not JSON${excerpt(response.body)}`
        })
      }
    })
})
