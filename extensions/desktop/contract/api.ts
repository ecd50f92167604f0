/**
 * The Desktop routes: a being's signals (list, answer, dismiss; the owner may raise one on their
 * own desktop by hand), its widget layout, and the "now" summary. Every route needs a session
 * and only ever touches the caller's own desktop.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { RaisedSignal, Signal, SignalInput } from "../../../actors/being/contract/signal.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { AnswerRequest, NowParams, NowResponse, SignalListParams, WidgetLayout, WidgetLayoutRequest } from "./records.ts"

const SignalIdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class DesktopApi extends HttpApiGroup.make("desktop")
  .add(HttpApiEndpoint.get("listSignals", "/desktop/signals").setUrlParams(SignalListParams).addSuccess(Schema.Array(Signal)))
  .add(
    HttpApiEndpoint.post("raiseSignal", "/desktop/signals")
      .setPayload(SignalInput)
      .addSuccess(RaisedSignal)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.post("answerSignal", "/desktop/signals/:id/answer")
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
      .setPath(SignalIdParam)
      .addSuccess(Signal)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
  )
  .add(HttpApiEndpoint.get("getWidgets", "/desktop/widgets").addSuccess(WidgetLayout))
  .add(HttpApiEndpoint.put("putWidgets", "/desktop/widgets").setPayload(WidgetLayoutRequest).addSuccess(WidgetLayout))
  .add(HttpApiEndpoint.get("now", "/desktop/now").setUrlParams(NowParams).addSuccess(NowResponse))
  .middleware(Authentication)
  .prefix("/api")
{}
