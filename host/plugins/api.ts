/** The plugins routes: what is installed and what each contributes. */
import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"
import { InstalledPlugin } from "../../kernel/extensions/schemas.ts"
import { Authentication } from "../auth/session.ts"

export class PluginsApi extends HttpApiGroup.make("plugins")
  .add(HttpApiEndpoint.get("listPlugins", "/plugins").addSuccess(Schema.Array(InstalledPlugin)))
  .middleware(Authentication)
  .prefix("/api")
{}
