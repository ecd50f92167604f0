/**
 * The themes a being may wear (docs/api.md "Themes"): the node's built-in ones (contributed by
 * plugins) and the being's own (bought copies), and which one the being wears. The caller is the
 * session's being.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { NotFound } from "../../../kernel/contract/errors.ts"
import { ThemeTokens } from "../../../kernel/contract/theme.ts"
import { Authentication } from "../../accounts/contract/session.ts"

export const ThemeView = Schema.Struct({
  /** A built-in's contribution name (`themes.dark`), or an owned copy's id. */
  id: Schema.String,
  name: Schema.String,
  colorScheme: Schema.Literal("light", "dark"),
  tokens: ThemeTokens,
  source: Schema.Literal("builtin", "owned")
}).annotations({ identifier: "ThemeView" })
export type ThemeView = typeof ThemeView.Type

export const ThemeChoice = Schema.Struct({
  /** The theme worn; null: none chosen, the app follows the device's light or dark setting. */
  activeId: Schema.NullOr(Schema.String),
  themes: Schema.Array(ThemeView)
}).annotations({ identifier: "ThemeChoice" })
export type ThemeChoice = typeof ThemeChoice.Type

export const ChooseTheme = Schema.Struct({
  themeId: Schema.NullOr(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)))
}).annotations({ identifier: "ChooseTheme", parseOptions: { onExcessProperty: "error" } })

export class ThemesApi extends HttpApiGroup.make("themes")
  .annotate(OpenApi.Description, "The themes a being may use (built-in and bought) and choosing the active one.")
  .add(
    HttpApiEndpoint.get("listThemes", "/themes")
      .annotate(OpenApi.Summary, "List themes")
      .annotate(
        OpenApi.Description,
        "The node's built-in themes and the caller's own (bought) ones, and the active one. Any session."
      )
      .addSuccess(ThemeChoice)
  )
  .add(
    HttpApiEndpoint.put("chooseTheme", "/themes/active")
      .annotate(OpenApi.Summary, "Choose the active theme")
      .annotate(
        OpenApi.Description,
        "Sets the caller's theme, or null to follow the device. Any session. Refusals: 404 `theme_not_found`."
      )
      .setPayload(ChooseTheme)
      .addSuccess(ThemeChoice)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}
