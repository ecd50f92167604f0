/**
 * One structured answer from the cheap tier: the provider is asked for JSON fitting a JSON
 * Schema, the answer is checked again by the Effect schema (providers do not all enforce theirs),
 * and a misfit gets one repair told the exact errors; a second misfit is a plain 503
 * `model_reply_invalid`. Model failures become their ApiErrors (models_unavailable, ...).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ModelReplyInvalid } from "./contract/errors.ts"
import type { ChatMessage } from "../models/contract/chat.ts"
import { toApiError } from "../models/contract/errors.ts"
import type { ModelsShape } from "../models/contract/models.ts"

export interface StructuredAsk<A, I> {
  readonly schema: Schema.Schema<A, I>
  /** The same shape as JSON Schema, named for the provider. */
  readonly jsonSchema: { readonly name: string; readonly schema: Readonly<Record<string, unknown>> }
  readonly messages: ReadonlyArray<ChatMessage>
  readonly purpose: string
  readonly beingId: string
  /** What was not done when the answer never fits ("nothing was learned"). */
  readonly otherwise: string
}

export const askStructured = <A, I>(models: ModelsShape, ask: StructuredAsk<A, I>) =>
  Effect.gen(function* () {
    const decode = Schema.decodeUnknownEither(ask.schema)
    const responseFormat = {
      type: "json_schema",
      name: ask.jsonSchema.name,
      schema: ask.jsonSchema.schema,
      strict: true
    } as const
    const call = (messages: ReadonlyArray<ChatMessage>) =>
      models
        .chatJson("cheap", { messages, responseFormat, purpose: ask.purpose, beingId: ask.beingId })
        .pipe(Effect.mapError(toApiError))

    const first = yield* call(ask.messages)
    const checked = decode(first.value)
    if (Either.isRight(checked)) return checked.right
    const second = yield* call([
      ...ask.messages,
      { role: "assistant", content: first.text },
      {
        role: "user",
        content: `That answer does not fit the schema:\n${ParseResult.TreeFormatter.formatErrorSync(checked.left)}\nAnswer again with only the corrected JSON.`
      }
    ])
    const repaired = decode(second.value)
    if (Either.isRight(repaired)) return repaired.right
    return yield* Effect.fail(
      new ModelReplyInvalid({
        message: `The model's answer did not fit its schema, even after one repair; ${ask.otherwise}.`,
        details: { errors: ParseResult.TreeFormatter.formatErrorSync(repaired.left).slice(0, 2000) }
      })
    )
  })
