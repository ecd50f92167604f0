/**
 * The 'transcribe' tier: audio to text through the audio transcriptions API
 * (`POST /v1/audio/transcriptions`), checked against the ceilings by the longest the audio can
 * plausibly last (only its size is known before the call), and recorded in the ledger in audio
 * minutes: as long as the provider says it was, else that estimate. The recording is sent from
 * memory and kept nowhere.
 */
import * as Effect from "effect/Effect"
import type { CallTools, Usage } from "./call-tools.ts"
import { loadSdk } from "./clients.ts"
import type { TranscriptionRequest, TranscriptionResult } from "./contract/chat.ts"
import { audioSecondsIn, costOfAudio, tokensIn } from "./prices.ts"
import { spanNamed } from "../../kernel/spans.ts"

/**
 * The audio's length a transcription answer reports: `usage.seconds` (OpenAI's json), or `duration` (verbose_json,
 * local servers).
 */
const durationOf = (answer: {
  readonly usage?: { readonly type: string; readonly seconds?: number }
}): number | null => {
  if (answer.usage?.type === "duration" && typeof answer.usage.seconds === "number") return answer.usage.seconds
  const duration = (answer as { readonly duration?: unknown }).duration
  return typeof duration === "number" && duration >= 0 ? duration : null
}

/** The language a transcription answer names (`language` of verbose_json and many local servers), if any. */
const languageOf = (answer: object): string | null => {
  const language = (answer as { readonly language?: unknown }).language
  return typeof language === "string" && language !== "" ? language.slice(0, 40) : null
}

export const makeTranscription =
  ({ usableBinding, withFallback, beginPriced, record, clientFor, failureOf }: CallTools) =>
  (request: TranscriptionRequest) =>
    Effect.gen(function* () {
      const primary = yield* usableBinding("transcribe")
      // Before the call only the size is known: the ceilings are checked against the longest it can plausibly last.
      const estimatedSeconds = audioSecondsIn(request.audio.byteLength)
      return yield* withFallback(primary, (binding, fallback) =>
        Effect.gen(function* () {
          const attempt = yield* beginPriced(
            binding,
            fallback,
            (price) => costOfAudio(price, estimatedSeconds),
            request
          )
          const response = yield* Effect.tryPromise({
            try: async (signal) => {
              const { toFile } = await loadSdk()
              // The file is made from the bytes in memory: the recording never touches the disk.
              const file = await toFile(request.audio, request.filename, { type: request.mimeType })
              const language = request.language === null ? {} : { language: request.language }
              return (await clientFor(binding)).audio.transcriptions.create(
                { model: binding.model, file, response_format: "json", ...language },
                { signal }
              )
            },
            catch: failureOf(binding)
          })
          const reported = durationOf(response)
          const counted: Usage = { promptTokens: 0, completionTokens: tokensIn(response.text) }
          // Reported usage is the audio's length or its tokens, whichever unit the provider bills in.
          const usage =
            response.usage?.type === "tokens"
              ? { promptTokens: response.usage.input_tokens, completionTokens: response.usage.output_tokens }
              : reported === null
                ? null
                : counted
          const seconds = reported ?? estimatedSeconds
          const call = yield* record(attempt, request, usage, counted, (price) => ({
            unit: "audio_minutes",
            quantity: seconds / 60,
            costUsd: costOfAudio(price, seconds)
          }))
          return {
            text: response.text,
            language: languageOf(response) ?? request.language,
            audioSeconds: reported,
            call
          } satisfies TranscriptionResult
        })
      )
    }).pipe(spanNamed("models.transcribe", { attributes: { purpose: request.purpose } }))
