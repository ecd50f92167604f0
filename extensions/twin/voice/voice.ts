/**
 * Voice: where the caller's recordings would go, their consent to that destination, and a
 * transcription through the `transcribe` tier. Consent is per being and bound to the
 * destination's fingerprint (destination.ts): it is void once any part of the destination moves,
 * and a destination that keeps audio on the host needs none. A recording arrives in memory and
 * goes to the model from there; nothing here writes it anywhere.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { SttConsentRequired, SttDestinationChanged, SttStaysOnDevice } from "../contract/errors.ts"
import { NoModelToCall, toApiError } from "../../models/contract/errors.ts"
import { Models } from "../../models/contract/models.ts"
import type { AudioFormat, NodeSttStatus, NodeTranscript } from "./contract/records.ts"
import { VoiceConsentsRepository } from "./consents-repository.ts"
import { destinationOf, placeOf } from "./destination.ts"
import { SttBinding } from "./ports.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** A recording read from the request, whole, in memory. */
export interface Recording {
  readonly audio: Uint8Array
  readonly filename: string
  readonly mimeType: string
  readonly format: AudioFormat
  readonly language: string | null
}

export class Voice extends Effect.Service<Voice>()("twin/Voice", {
  dependencies: [VoiceConsentsRepository.Default],
  effect: Effect.gen(function* () {
    const consents = yield* VoiceConsentsRepository
    const models = yield* Models
    const binding = yield* SttBinding

    const status = fnNamed("voice.status")(function* (beingId: string) {
      // Where recordings go now: a binding changed in Settings → Models moves it.
      const destination = destinationOf(binding)
      const consent = Option.getOrNull(yield* consents.find(beingId))
      const consented = destination.leavesDevice && consent?.consentKey === destination.consentKey
      return { ...destination, consented, consentedAt: consented ? consent!.consentedAt : null } satisfies NodeSttStatus
    })

    const consent = fnNamed("voice.consent")(function* (beingId: string, consentKey: string) {
      const destination = destinationOf(binding)
      if (!destination.leavesDevice) {
        return yield* new SttStaysOnDevice({
          message:
            "Nothing leaves this host: recordings are transcribed by a local server, so there is nothing to agree to."
        })
      }
      if (consentKey !== destination.consentKey) {
        return yield* new SttDestinationChanged({
          message: `Where recordings go has changed since you saw it: they now go to ${destination.destination}. Read it again, then agree to it.`,
          details: { consentKey: destination.consentKey, destination: destination.destination }
        })
      }
      const consentedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* consents.save({ beingId, consentKey, consentedAt })
      return yield* status(beingId)
    })

    const withdraw = fnNamed("voice.withdrawConsent")(function* (beingId: string) {
      yield* consents.remove(beingId)
      return yield* status(beingId)
    })

    /**
     * Whether the caller may send a recording now: a usable tier, and where audio leaves the
     * host, a consent to exactly this destination. Checked before the body is read, and again
     * once it has been (a consent may be withdrawn meanwhile).
     */
    const admit = fnNamed("voice.admit")(function* (beingId: string) {
      const destination = destinationOf(binding)
      if (!destination.available) {
        return yield* new NoModelToCall({
          message: destination.reason ?? "No transcription model can be called.",
          details: { tier: "transcribe" }
        })
      }
      if (!destination.leavesDevice) return
      const consent = Option.getOrNull(yield* consents.find(beingId))
      if (consent === null) {
        return yield* new SttConsentRequired({
          message: `A recording would leave this host for ${destination.destination}. Agree to that destination first (POST /api/twin/voice/stt/consent).`,
          details: { consentKey: destination.consentKey, destination: destination.destination }
        })
      }
      // The second document: transcribe is 403 until the current destination was agreed to; an agreement to an
      // older one is not an agreement to this one (409 `stt_destination_changed` is the consent route's, for a stale key).
      if (consent.consentKey !== destination.consentKey) {
        return yield* new SttConsentRequired({
          message: `You agreed to another destination; recordings would now go to ${destination.destination}. Agree to it again first (POST /api/twin/voice/stt/consent).`,
          details: {
            consentKey: destination.consentKey,
            destination: destination.destination,
            agreedTo: consent.consentKey
          }
        })
      }
    })

    const transcribe = fnNamed("voice.transcribe")(function* (beingId: string, recording: Recording) {
      yield* admit(beingId)
      const result = yield* models
        .transcribe({
          audio: recording.audio,
          filename: recording.filename,
          mimeType: recording.mimeType,
          language: recording.language,
          purpose: "voice transcription",
          beingId
        })
        .pipe(Effect.mapError(toApiError))
      const { call } = result
      return {
        text: result.text,
        language: result.language,
        audioSeconds: result.audioSeconds,
        bytes: recording.audio.byteLength,
        format: recording.format,
        model: call.model,
        provider: call.provider,
        leavesDevice: call.provider === "remote",
        destination: placeOf(call),
        costUsd: call.costUsd,
        durationMs: call.durationMs
      } satisfies NodeTranscript
    })

    return { status, consent, withdraw, admit, transcribe } as const
  })
}) {}
