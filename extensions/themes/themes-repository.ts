/**
 * `being_themes`: the themes a being holds (token sets for the UI's design system), apart from the
 * built-in ones the plugin contributes. A bought theme lands here as a copy, not active; choosing
 * one in Settings makes it the being's active theme.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { ThemeTokens } from "../../kernel/extensions/contributions.ts"
import { BooleanColumn, JsonColumn, operation } from "../../kernel/repository.ts"

export const OwnedTheme = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  name: Schema.String,
  colorScheme: Schema.Literal("light", "dark"),
  tokens: JsonColumn(ThemeTokens),
  active: BooleanColumn,
  createdAt: Schema.String
})
export type OwnedTheme = typeof OwnedTheme.Type

const columns = `id, owner_id AS "ownerId", name, color_scheme AS "colorScheme", tokens, active, created_at AS "createdAt"`

export class ThemesRepository extends Effect.Service<ThemesRepository>()("themes/ThemesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation("themes.find", SqlSchema.findOne({
      Request: Schema.String,
      Result: OwnedTheme,
      execute: (id) => sql`SELECT ${sql.literal(columns)} FROM being_themes WHERE id = ${id}`
    }))

    const insert = operation("themes.insert", SqlSchema.void({
      Request: OwnedTheme,
      execute: (theme) => sql`INSERT INTO being_themes (id, owner_id, name, color_scheme, tokens, active, created_at)
        VALUES (${theme.id}, ${theme.ownerId}, ${theme.name}, ${theme.colorScheme}, ${theme.tokens}, ${theme.active}, ${theme.createdAt})`
    }))

    return { find, insert } as const
  })
}) {}
