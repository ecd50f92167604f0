/**
 * Wearing a theme: its tokens become the app's semantic custom properties on `:root` (app.css
 * defines the defaults and the device's dark scheme), through a constructed stylesheet the page
 * adopts, since the content security policy forbids inline styles. No theme: the sheet is empty
 * and app.css decides again. Token values are plain CSS values (the contract refuses anything
 * that could leave its property).
 */
import type { ThemeChoice, ThemeView } from "../../extensions/themes/contract/api.ts"
import type { ThemeTokens } from "../../kernel/contract/theme.ts"
import { request } from "../api/client.ts"

/** Which custom properties each token sets. */
const properties: Record<keyof ThemeTokens, ReadonlyArray<string>> = {
  background: ["--node-bg", "--node-surface-sunken"],
  surface: ["--node-surface", "--node-rail-bg"],
  text: ["--node-text"],
  muted: ["--node-muted"],
  accent: ["--node-accent", "--node-accent-hover"],
  danger: ["--node-danger"],
  border: ["--node-border", "--node-border-strong"],
  focusRing: ["--node-focus"]
}

let sheet: CSSStyleSheet | null = null

const themeSheet = (): CSSStyleSheet => {
  if (sheet === null) {
    sheet = new CSSStyleSheet()
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
  }
  return sheet
}

export const wearTheme = (theme: ThemeView | null): void => {
  const target = themeSheet()
  if (theme === null) {
    target.replaceSync("")
    delete document.documentElement.dataset.theme
    return
  }
  const declarations = (Object.keys(properties) as Array<keyof ThemeTokens>).flatMap((token) =>
    properties[token].map((property) => `${property}: ${theme.tokens[token]};`)
  )
  target.replaceSync(`:root { color-scheme: ${theme.colorScheme}; ${declarations.join(" ")} }`)
  document.documentElement.dataset.theme = theme.id
}

/** The theme a choice names, or none. */
export const wornIn = (choice: ThemeChoice): ThemeView | null =>
  choice.themes.find((theme) => theme.id === choice.activeId) ?? null

/** Asks the node which theme the signed-in being wears and wears it; a failure leaves the app as it is. */
export const wearChosenTheme = async (): Promise<void> => {
  const result = await request((client) => client.themes.listThemes())
  if (result.ok) wearTheme(wornIn(result.value))
}
