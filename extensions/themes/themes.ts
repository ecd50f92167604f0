/**
 * The themes a being may wear: the built-in ones every plugin contributes (the registry's `theme`
 * kind, by contribution name) and the being's own copies; and the one it wears. A theme no longer
 * there (a plugin removed, a copy deleted) is worn no more: the app then follows the device.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { nowIso } from "../../kernel/time.ts"
import type { ThemeChoice, ThemeView } from "./contract/api.ts"
import { ThemeNotFound } from "./contract/errors.ts"
import { ThemesRepository } from "./themes-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export class Themes extends Effect.Service<Themes>()("themes/Themes", {
  dependencies: [ThemesRepository.Default],
  effect: Effect.gen(function* () {
    const repository = yield* ThemesRepository
    const extensions = yield* ExtensionHost

    const available = (beingId: string) =>
      Effect.map(
        repository.listOwned(beingId),
        (owned): ReadonlyArray<ThemeView> => [
          ...extensions.registries.theme.list().map((contribution) => ({
            id: contribution.name,
            name: contribution.declaration.title ?? contribution.name,
            colorScheme: contribution.value.colorScheme,
            tokens: contribution.value.tokens,
            source: "builtin" as const
          })),
          ...owned.map((theme) => ({
            id: theme.id,
            name: theme.name,
            colorScheme: theme.colorScheme,
            tokens: theme.tokens,
            source: "owned" as const
          }))
        ]
      )

    const list = (beingId: string) =>
      Effect.gen(function* () {
        const themes = yield* available(beingId)
        const chosen = yield* repository.chosen(beingId)
        const activeId = Option.getOrNull(
          Option.filter(
            Option.map(chosen, (row) => row.themeId),
            (id) => themes.some((theme) => theme.id === id)
          )
        )
        const choice: ThemeChoice = { activeId, themes }
        return choice
      }).pipe(spanNamed("themes.list"))

    const choose = (beingId: string, themeId: string | null) =>
      Effect.gen(function* () {
        if (themeId === null) yield* repository.unchoose(beingId)
        else {
          const themes = yield* available(beingId)
          if (!themes.some((theme) => theme.id === themeId)) {
            return yield* new ThemeNotFound({
              message: "You have no theme with that id.",
              details: { themeId }
            })
          }
          yield* repository.choose({ beingId, themeId, at: yield* nowIso })
        }
        return yield* list(beingId)
      }).pipe(spanNamed("themes.choose"))

    return { list, choose } as const
  })
}) {}
