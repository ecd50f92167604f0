/**
 * Handlers of the voice routes: the caller is the session's being; the rules live in the Voice
 * service. The transcription is raw: its multipart body is read here into memory
 * (voice-recording.ts), after the caller was admitted, so a refused caller's recording is never read.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { TwinSettings } from "./settings.ts"
import { Voice } from "./voice/voice.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { VoiceApi } from "./voice/contract/api.ts"
import { answerRefusal } from "../../kernel/http/raw-route.ts"
import { SttBindingLive } from "./voice-binding.ts"
import { readRecording } from "./voice-recording.ts"

const caller = Effect.map(CurrentSession, (session) => session.beingId)

export const VoiceHandlers = HttpApiBuilder.group(apiOf(VoiceApi), "voice", (handlers) =>
  Effect.gen(function* () {
    const voice = yield* Voice
    const { maxTranscribeBytes } = yield* TwinSettings
    return handlers
      .handle("stt", () => Effect.flatMap(caller, voice.status))
      .handle("consent", ({ payload }) =>
        Effect.flatMap(caller, (beingId) => voice.consent(beingId, payload.consentKey))
      )
      .handle("withdrawConsent", () => Effect.flatMap(caller, voice.withdraw))
      .handleRaw("transcribe", ({ request }) =>
        Effect.gen(function* () {
          const beingId = yield* caller
          yield* voice.admit(beingId)
          const read = yield* Effect.promise(() =>
            readRecording(NodeHttpServerRequest.toIncomingMessage(request), maxTranscribeBytes)
          )
          // A 413 closes the connection (the rest of its body is never read): answered here, not by the contract.
          if (read._tag === "Refused") return answerRefusal(read.error)
          return yield* voice.transcribe(beingId, read.recording)
        })
      )
  })
).pipe(Layer.provide(Voice.Default.pipe(Layer.provide(SttBindingLive))))
