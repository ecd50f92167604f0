/**
 * A message read aloud: its text through the node's 'speech' tier, answered as audio and stored
 * nowhere. Only the caller's own threads; charged to the caller, held to the spend ceilings like
 * every model call. A message longer than one speech call takes is read up to the last sentence
 * end that fits, and the answer says so.
 */
import * as Effect from "effect/Effect"
import { Models } from "../models/contract/models.ts"
import { toApiError } from "../models/contract/errors.ts"
import { MAX_SPOKEN_CHARS } from "./contract/records.ts"
import { Threads } from "./threads.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The text up to `max` characters, cut after the last sentence (or else word) end that fits. */
export const spokenPart = (text: string, max = MAX_SPOKEN_CHARS): { readonly text: string; readonly cut: boolean } => {
  if (text.length <= max) return { text, cut: false }
  const head = text.slice(0, max)
  const sentence = Math.max(
    head.lastIndexOf(". "),
    head.lastIndexOf("! "),
    head.lastIndexOf("? "),
    head.lastIndexOf("\n")
  )
  const end = sentence > max / 2 ? sentence + 1 : Math.max(head.lastIndexOf(" "), max / 2)
  return { text: head.slice(0, end).trimEnd(), cut: true }
}

export class ThreadSpeech extends Effect.Service<ThreadSpeech>()("threads/ThreadSpeech", {
  dependencies: [Threads.Default],
  effect: Effect.gen(function* () {
    const threads = yield* Threads
    const models = yield* Models

    const speak = (beingId: string, threadId: string, messageId: string) =>
      Effect.gen(function* () {
        const message = yield* threads.message(beingId, threadId, messageId)
        const part = spokenPart(message.content)
        const spoken = yield* models
          .speech({ text: part.text, purpose: "muse read aloud", beingId })
          .pipe(Effect.mapError(toApiError))
        return { audio: spoken.audio, mimeType: spoken.mimeType, cut: part.cut }
      }).pipe(spanNamed("threads.speak"))

    return { speak } as const
  })
}) {}
