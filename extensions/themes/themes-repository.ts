/**
 * `being_themes`: the themes a being holds (token sets for the UI's design system), apart from the
 * built-in ones the plugin contributes; `being_theme_choice`: the one each being wears, built-in or
 * owned. A bought theme lands here as a copy, not worn; choosing one in Settings wears it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { ThemeTokens } from "../../kernel/contract/theme.ts"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { HeldTheme, HeldThemes } from "./contract/held-themes.ts"

export const OwnedTheme = Schema.Struct({ ...HeldTheme.fields, tokens: JsonColumn(ThemeTokens) })
export type OwnedTheme = typeof OwnedTheme.Type

const columns = `id, owner_id AS "ownerId", name, color_scheme AS "colorScheme", tokens, created_at AS "createdAt"`

export class ThemesRepository extends Effect.Service<ThemesRepository>()("themes/ThemesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation(
      "themes.find",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: OwnedTheme,
        execute: (id) => sql`SELECT ${sql.literal(columns)} FROM being_themes WHERE id = ${id}`
      })
    )

    const insert = operation(
      "themes.insert",
      SqlSchema.void({
        Request: OwnedTheme,
        execute: (theme) => sql`INSERT INTO being_themes (id, owner_id, name, color_scheme, tokens, created_at)
        VALUES (${theme.id}, ${theme.ownerId}, ${theme.name}, ${theme.colorScheme}, ${theme.tokens}, ${theme.createdAt})`
      })
    )

    const listOwned = operation(
      "themes.listOwned",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: OwnedTheme,
        execute: (ownerId) =>
          sql`SELECT ${sql.literal(columns)} FROM being_themes WHERE owner_id = ${ownerId} ORDER BY created_at, id`
      })
    )

    const chosen = operation(
      "themes.chosen",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ themeId: Schema.String }),
        execute: (beingId) => sql`SELECT theme_id AS "themeId" FROM being_theme_choice WHERE being_id = ${beingId}`
      })
    )

    const choose = operation(
      "themes.choose",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, themeId: Schema.String, at: Schema.String }),
        execute: ({
          beingId,
          themeId,
          at
        }) => sql`INSERT INTO being_theme_choice (being_id, theme_id, updated_at) VALUES (${beingId}, ${themeId}, ${at})
        ON CONFLICT (being_id) DO UPDATE SET theme_id = excluded.theme_id, updated_at = excluded.updated_at`
      })
    )

    const unchoose = operation(
      "themes.unchoose",
      SqlSchema.void({
        Request: Schema.String,
        execute: (beingId) => sql`DELETE FROM being_theme_choice WHERE being_id = ${beingId}`
      })
    )

    return { find, insert, listOwned, chosen, choose, unchoose } as const
  })
}) {}

/** The held themes as other features reach them (contract/held-themes.ts). */
export const HeldThemesLive = Layer.effect(
  HeldThemes,
  Effect.map(ThemesRepository, (repository) => ({ find: repository.find, hold: repository.insert }))
).pipe(Layer.provide(ThemesRepository.Default))
