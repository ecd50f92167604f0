/**
 * The plugins routes: what is installed and what each contributes (anyone signed in); what is
 * available under the plugin folder, install and uninstall (the owner only).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import {
  AvailablePlugins,
  InstalledPlugin,
  InstallPluginRequest,
  UninstallResult
} from "../../../kernel/contract/plugins.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const PluginIdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(214)) })

export class PluginsApi extends HttpApiGroup.make("plugins")
  .add(HttpApiEndpoint.get("listPlugins", "/plugins").addSuccess(Schema.Array(InstalledPlugin)))
  .add(HttpApiEndpoint.get("availablePlugins", "/plugins/available").addSuccess(AvailablePlugins).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.post("installPlugin", "/plugins")
      .setPayload(InstallPluginRequest)
      .addSuccess(InstalledPlugin)
      .addError(Forbidden.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("uninstallPlugin", "/plugins/:id")
      .setPath(PluginIdParam)
      .addSuccess(UninstallResult)
      .addError(Forbidden.schema)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}
