/**
 * The modules routes: a module's page calls the node through the bridge, for the session's being,
 * within the module's `uses` and its plugin's grant. The body is `{ method, args }` and names no
 * being, plugin or installation: the path names the module, the session the being.
 * (The module's document itself is a raw route: extensions/modules/document-route.ts.)
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import {
  Conflict,
  Forbidden,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  Unavailable
} from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { BridgeCallRequest, BridgeCallResult } from "../bridge/contract/bridge.ts"
import { FileId } from "../../files/contract/records.ts"

export const ModulePath = Schema.Struct({
  /** The plugin's id, URL-encoded (`%40example%2Fnotebook`). */
  id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(214)),
  extensionId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))
})

/**
 * An editor saving the one file it was opened on: the web app around the editor's frame names the
 * file (the frame asks only to save its content), so the frame cannot pick another.
 */
export const SaveEditedFile = Schema.Struct({
  fileId: FileId,
  content: Schema.String
})
export type SaveEditedFile = typeof SaveEditedFile.Type

export const SavedFile = Schema.Struct({ size: Schema.Number })

export class ModulesApi extends HttpApiGroup.make("modules")
  .annotate(
    OpenApi.Description,
    "The host side of a plugin module's bridge: the calls a module's frame makes as the signed-in being, within " +
      "what the module uses and its plugin was granted."
  )
  .add(
    HttpApiEndpoint.post("callModule", "/modules/:id/:extensionId/call")
      .annotate(OpenApi.Summary, "Call a bridge method from a module")
      .annotate(
        OpenApi.Description,
        "Runs one bridge method (docs/plugins.md \"Modules\") as the session's being, within the module's `uses` " +
          "and its plugin's grant. Any session. Refusals: 400 `unknown_method` (`details.methods`), 400 " +
          "`invalid_request` (args of the wrong shape), 403 `not_granted`, 404 `unknown_module`, 404 " +
          "`unknown_skill`, 409 `storage_full`."
      )
      .setPath(ModulePath)
      .setPayload(BridgeCallRequest)
      .addSuccess(BridgeCallResult)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(PayloadTooLarge.schema)
      .addError(Unavailable.schema)
      .annotate(RateClass, "bridge")
  )
  .add(
    HttpApiEndpoint.post("saveEditedFile", "/modules/:id/:extensionId/file")
      .annotate(OpenApi.Summary, "Save a file from a plugin editor")
      .annotate(
        OpenApi.Description,
        "Writes the content an editor extra was opened on back to the file, as the session's being. Any session. " +
          "Refusals: 400 `not_an_editor`, 400 `file_type_not_handled`, 400 `file_not_saved`, 403 `not_granted` (no " +
          "`filesystem` in the editor's uses and grant), 404 `unknown_module`, 404 a file the being cannot open, " +
          "413."
      )
      .setPath(ModulePath)
      .setPayload(SaveEditedFile)
      .addSuccess(SavedFile)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(PayloadTooLarge.schema)
      .annotate(RateClass, "bridge")
  )
  .middleware(Authentication)
  .prefix("/api") {}
