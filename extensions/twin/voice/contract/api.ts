/**
 * The voice routes (spec: Twin, voice transcription): where a recording would go, the consent to
 * send it there, and the transcription itself, through the node's `transcribe` model tier. Every
 * route needs a session; consent is the caller's own. docs/api.md ("Voice") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { Conflict, Forbidden, InvalidRequest, PayloadTooLarge, Unavailable, UnsupportedMediaType } from "../../../../kernel/contract/errors.ts"
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
  .add(HttpApiEndpoint.get("stt", "/twin/voice/stt").addSuccess(NodeSttStatus))
  .add(
    HttpApiEndpoint.post("consent", "/twin/voice/stt/consent")
      .setPayload(SttConsentRequest)
      .addSuccess(NodeSttStatus)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.del("withdrawConsent", "/twin/voice/stt/consent").addSuccess(NodeSttStatus))
  .add(
    // multipart/form-data, read by the handler into memory (busboy): the contract declares no payload schema.
    HttpApiEndpoint.post("transcribe", "/twin/voice/transcribe")
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
      .annotate(BodyLimit, { bytes: DEFAULT_MAX_TRANSCRIBE_BYTES, setting: MAX_TRANSCRIBE_BYTES_SETTING, allowance: TRANSCRIBE_FORM_ALLOWANCE })
      .annotate(ContentTypes, ["multipart/form-data"])
  )
  .middleware(Authentication)
  .prefix("/api")
{}
