/**
 * The Desktop routes: a being's signals (list, answer, dismiss; the owner may raise one on their
 * own desktop by hand), its widget layout, and the "now" summary. Every route needs a session
 * and only ever touches the caller's own desktop.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { RaisedSignal, Signal, SignalInput } from "../../../actors/being/contract/signal.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  AnswerRequest,
  NowParams,
  NowResponse,
  SignalListParams,
  WidgetLayout,
  WidgetLayoutRequest
} from "./records.ts"

const SignalIdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class DesktopApi extends HttpApiGroup.make("desktop")
  .annotate(
    OpenApi.Description,
    "The signed-in being's desktop: signals (things to answer or dismiss), the widget layout, and what is " +
      "happening now."
  )
  .add(
    HttpApiEndpoint.get("listSignals", "/desktop/signals")
      .annotate(OpenApi.Summary, "List signals")
      .annotate(
        OpenApi.Description,
        "The caller's signals in one status (`open` by default, `answered`, `dismissed`), newest first, at most " +
          "`limit` (1..200) and `offset` (0..1,000,000) skipped. Any session."
      )
      .setUrlParams(SignalListParams)
      .addSuccess(Schema.Array(Signal))
  )
  .add(
    HttpApiEndpoint.post("raiseSignal", "/desktop/signals")
      .annotate(OpenApi.Summary, "Raise a signal on the owner's desktop")
      .annotate(
        OpenApi.Description,
        "Raises a signal with source `owner` on the owner's own desktop (features and plugins raise through the " +
          "same service). Owner only (403 `forbidden`). Refusals: 503 `no_owner`."
      )
      .setPayload(SignalInput)
      .addSuccess(RaisedSignal)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.post("answerSignal", "/desktop/signals/:id/answer")
      .annotate(OpenApi.Summary, "Answer a signal")
      .annotate(
        OpenApi.Description,
        "Answers one of the caller's open signals with one of its options; the action it carries runs in the " +
          "same step. Any session. Refusals: 400 `unknown_option` (`details.options`), 404 `not_found`, 409 " +
          "`signal_closed`, 409 `action_failed` (rolled back; the signal stays open)."
      )
      .setPath(SignalIdParam)
      .setPayload(AnswerRequest)
      .addSuccess(Signal)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.post("dismissSignal", "/desktop/signals/:id/dismiss")
      .annotate(OpenApi.Summary, "Dismiss a signal")
      .annotate(
        OpenApi.Description,
        "Dismisses one of the caller's open signals. Any session. Refusals: 404 `not_found`, 409 " + "`signal_closed`."
      )
      .setPath(SignalIdParam)
      .addSuccess(Signal)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.get("getWidgets", "/desktop/widgets")
      .annotate(OpenApi.Summary, "The widget layout")
      .annotate(
        OpenApi.Description,
        "The caller's desktop widgets; the default layout for a being that never stored one. Any session."
      )
      .addSuccess(WidgetLayout)
  )
  .add(
    HttpApiEndpoint.put("putWidgets", "/desktop/widgets")
      .annotate(OpenApi.Summary, "Replace the widget layout")
      .annotate(OpenApi.Description, "Replaces the caller's whole widget layout. Any session.")
      .setPayload(WidgetLayoutRequest)
      .addSuccess(WidgetLayout)
  )
  .add(
    HttpApiEndpoint.get("now", "/desktop/now")
      .annotate(OpenApi.Summary, "What is happening now")
      .annotate(
        OpenApi.Description,
        "The caller's now view (time in the given IANA zone `tz`, what is due and open). Any session. Refusals: " +
          "400 `invalid_request` (an unknown zone)."
      )
      .setUrlParams(NowParams)
      .addSuccess(NowResponse)
  )
  .middleware(Authentication)
  .prefix("/api") {}
