/** Handlers of the themes' routes: the caller wears what they choose, from the session only. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Themes } from "./themes.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { ThemesApi } from "./contract/api.ts"

const ThemesHandlers = HttpApiBuilder.group(apiOf(ThemesApi), "themes", (handlers) =>
  Effect.gen(function* () {
    const themes = yield* Themes
    return handlers
      .handle("listThemes", () => Effect.flatMap(CurrentSession, (who) => themes.list(who.beingId)))
      .handle("chooseTheme", ({ payload }) =>
        Effect.flatMap(CurrentSession, (who) => themes.choose(who.beingId, payload.themeId))
      )
  })
)

/** The themes routes over the themes service. */
export const themesRoutes = ThemesHandlers.pipe(Layer.provide(Themes.Default))
