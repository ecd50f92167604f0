/**
 * The themes a being holds, as another feature reaches them: the market checks a seller's theme
 * and delivers a bought copy. extensions/themes/themes-repository.ts provides it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ThemeTokens } from "../../../kernel/contract/theme.ts"

/** A theme a being holds (a copy it bought), apart from the built-in ones. */
export const HeldTheme = Schema.Struct({
  id: Schema.String,
  ownerId: Schema.String,
  name: Schema.String,
  colorScheme: Schema.Literal("light", "dark"),
  tokens: ThemeTokens,
  createdAt: Schema.String
}).annotations({ identifier: "HeldTheme" })
export type HeldTheme = typeof HeldTheme.Type

export interface HeldThemesShape {
  /** A held theme by id, whoever holds it. */
  readonly find: (id: string) => Effect.Effect<Option.Option<HeldTheme>>
  /** Gives a being a theme to hold (not worn until chosen). */
  readonly hold: (theme: HeldTheme) => Effect.Effect<void>
}

export class HeldThemes extends Context.Tag("themes/HeldThemes")<HeldThemes, HeldThemesShape>() {}
