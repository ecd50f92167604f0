/**
 * The 'speech' tier: text to audio through the audio speech API (`POST /v1/audio/speech`),
 * checked against the ceilings by the characters it will speak (known before the call), and
 * recorded in the ledger in characters. The audio is answered to the caller and kept nowhere.
 */
import * as Effect from "effect/Effect"
import type { CallTools } from "./call-tools.ts"
import { speechFormats, type SpeechRequest, type SpeechResult } from "./contract/chat.ts"
import { costOfSpeech, tokensIn } from "./prices.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const defaultVoice = "alloy"

export const makeSpeech = (tools: CallTools) => (request: SpeechRequest) =>
  Effect.gen(function* () {
    const primary = yield* tools.usableBinding("speech")
    const format = request.format ?? "mp3"
    const characters = request.text.length
    return yield* tools.withFallback(primary, (binding, fallback) =>
      Effect.gen(function* () {
        const attempt = yield* tools.beginPriced(binding, fallback, (price) => costOfSpeech(price, characters), request)
        const audio = yield* Effect.tryPromise({
          try: async (signal) => {
            const response = await (await tools.clientFor(binding)).audio.speech.create(
              {
                model: binding.model,
                input: request.text,
                voice: request.voice ?? defaultVoice,
                response_format: format
              },
              { signal }
            )
            return new Uint8Array(await response.arrayBuffer())
          },
          catch: tools.failureOf(binding)
        })
        const call = yield* tools.record(
          attempt,
          request,
          null,
          { promptTokens: tokensIn(request.text), completionTokens: 0 },
          (price) => ({
            unit: "speech_characters",
            quantity: characters,
            costUsd: costOfSpeech(price, characters)
          })
        )
        return { audio, format, mimeType: speechFormats[format], call } satisfies SpeechResult
      })
    )
  }).pipe(spanNamed("models.speech", { attributes: { purpose: request.purpose } }))
