/**
 * The voice routes (spec: Twin, voice transcription): where a recording would go, the consent to
 * send it there, and the transcription itself, through the node's `transcribe` model tier. Every
 * route needs a session; consent is the caller's own. docs/api.md ("Voice") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import {
  Conflict,
  Forbidden,
  InvalidRequest,
  PayloadTooLarge,
  Unavailable,
  UnsupportedMediaType
} from "../../../../kernel/contract/errors.ts"
import { AlsoCountsIn, BodyLimit, ContentTypes, RateClass } from "../../../../kernel/contract/endpoint-policy.ts"
import { Authentication } from "../../../accounts/contract/session.ts"
import {
  DEFAULT_MAX_TRANSCRIBE_BYTES,
  MAX_TRANSCRIBE_BYTES_SETTING,
  NodeSttStatus,
  NodeTranscript,
  SttConsentRequest,
  TRANSCRIBE_FORM_ALLOWANCE
} from "./records.ts"

export class VoiceApi extends HttpApiGroup.make("voice")
  .annotate(
    OpenApi.Description,
    "Speech to text for the signed-in being through the node's `transcribe` tier, behind the being's consent to " +
      "where audio goes."
  )
  .add(
    HttpApiEndpoint.get("stt", "/twin/voice/stt")
      .annotate(OpenApi.Summary, "Speech to text status")
      .annotate(
        OpenApi.Description,
        "Where the caller's audio would go, whether it leaves the host, what it costs, and the consent key. Any " +
          "session."
      )
      .addSuccess(NodeSttStatus)
  )
  .add(
    HttpApiEndpoint.post("consent", "/twin/voice/stt/consent")
      .annotate(OpenApi.Summary, "Consent to a transcription destination")
      .annotate(
        OpenApi.Description,
        "Records the caller's consent to the current destination's key. Any session. Refusals: 400 " +
          "`stt_stays_on_device`, 409 `stt_destination_changed` (`details`: the current key and destination)."
      )
      .setPayload(SttConsentRequest)
      .addSuccess(NodeSttStatus)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("withdrawConsent", "/twin/voice/stt/consent")
      .annotate(OpenApi.Summary, "Withdraw the transcription consent")
      .annotate(OpenApi.Description, "Withdraws the caller's consent; idempotent. Any session.")
      .addSuccess(NodeSttStatus)
  )
  .add(
    // multipart/form-data, read by the handler into memory (busboy): the contract declares no payload schema.
    HttpApiEndpoint.post("transcribe", "/twin/voice/transcribe")
      .annotate(OpenApi.Summary, "Transcribe audio")
      .annotate(
        OpenApi.Description,
        "A multipart body with one audio part (webm, ogg, mp4, m4a, mp3, wav, flac) and an optional `language`; " +
          "answers the transcript. Any session; rate classes `upload` and `llm`. Refusals: 503 " +
          "`models_unavailable`, 403 `stt_consent_required` (no agreement to the current destination, an older " +
          "one's included), 400 `no_audio`, " +
          "`one_audio_part`, `invalid_language`, 415 `unsupported_audio_format`, 413 `payload_too_large`, 409 " +
          "`spend_ceiling_reached`, 503 `model_failed`."
      )
      .addSuccess(NodeTranscript)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
      .addError(PayloadTooLarge.schema)
      .addError(UnsupportedMediaType.schema)
      .addError(Unavailable.schema)
      // An upload that spends model budget: it counts in both classes (docs/api.md, "Rate limits").
      .annotate(RateClass, "upload")
      .annotate(AlsoCountsIn, ["llm"])
      .annotate(BodyLimit, {
        bytes: DEFAULT_MAX_TRANSCRIBE_BYTES,
        setting: MAX_TRANSCRIBE_BYTES_SETTING,
        allowance: TRANSCRIBE_FORM_ALLOWANCE
      })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .middleware(Authentication)
  .prefix("/api") {}
