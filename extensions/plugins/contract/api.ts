/**
 * The plugins routes: what is installed and what each contributes (anyone signed in); what is
 * available under the plugin folder, install and uninstall (the owner only).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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
  .annotate(
    OpenApi.Description,
    "Installing, listing and removing plugins (built-in and third-party; docs/plugins.md). Listing needs a " +
      "session; installing and uninstalling are the owner's."
  )
  .add(
    HttpApiEndpoint.get("listPlugins", "/plugins")
      .annotate(OpenApi.Summary, "List installed plugins")
      .annotate(
        OpenApi.Description,
        "Every installed plugin with its status, capabilities, grant and contributions. Any session."
      )
      .addSuccess(Schema.Array(InstalledPlugin))
  )
  .add(
    HttpApiEndpoint.get("availablePlugins", "/plugins/available")
      .annotate(OpenApi.Summary, "List plugins available to install")
      .annotate(
        OpenApi.Description,
        "The folders under PLUGIN_DIR with their manifests (read without running code), capability notes and the " +
          "risk statement. Owner only (403 `forbidden`)."
      )
      .addSuccess(AvailablePlugins)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("installPlugin", "/plugins")
      .annotate(OpenApi.Summary, "Install a plugin")
      .annotate(
        OpenApi.Description,
        "Installs the plugin in a folder under PLUGIN_DIR with the capabilities the owner grants; nothing of it " +
          "runs before the grant is checked. Owner only (403 `forbidden`). Refusals: 400 `invalid_manifest`, " +
          "`outside_plugin_dir`, `unsupported_api_version`, `host_too_old`, `reserved_namespace`, `missing_grants` " +
          "(`details.missing`), `activation_failed`; 409 `plugin_installed`, `namespace_taken`, " +
          "`contribution_taken`."
      )
      .setPayload(InstallPluginRequest)
      .addSuccess(InstalledPlugin)
      .addError(Forbidden.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("uninstallPlugin", "/plugins/:id")
      .annotate(OpenApi.Summary, "Uninstall a plugin")
      .annotate(
        OpenApi.Description,
        "Removes the plugin (its id URL-encoded) and every key its modules stored. Owner only (403 `forbidden`). " +
          "Refusals: 400 `builtin_plugin`, 404 `not_found`."
      )
      .setPath(PluginIdParam)
      .addSuccess(UninstallResult)
      .addError(Forbidden.schema)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
