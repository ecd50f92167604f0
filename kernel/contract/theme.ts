/**
 * A theme: a token set for the UI's design system. Here, in a contract module, because plugins
 * contribute themes (kernel/extensions/contributions.ts) and the web app wears them.
 */
import * as Schema from "effect/Schema"

/**
 * Colours, lengths and functions such as rgb() or oklch(); no ';', braces, quotes or url(), so a value cannot escape
 * its property.
 */
const CssValue = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (value.trim() !== "" && /^[#(),.%/\w\s-]+$/.test(value)) ||
      `a theme value must be a plain CSS value (letters, digits, spaces and # ( ) , . % / -), got ${JSON.stringify(value)}`
  )
)

/** Each token is the value of one CSS custom property the UI defines (e.g. `focusRing` -> `--focus-ring`). */
export const ThemeTokens = Schema.Struct({
  background: CssValue,
  surface: CssValue,
  text: CssValue,
  muted: CssValue,
  accent: CssValue,
  danger: CssValue,
  border: CssValue,
  focusRing: CssValue
})
export type ThemeTokens = typeof ThemeTokens.Type

export const Theme = Schema.Struct({
  colorScheme: Schema.Literal("light", "dark"),
  tokens: ThemeTokens
})
export type Theme = typeof Theme.Type
