/**
 * The node's two themes. Text, muted text, accent and danger each keep at least 4.5:1 contrast
 * on both background and surface, so either theme passes WCAG AA for body text.
 */
import type { Theme } from "../../kernel/contract/theme.ts"

export const light: Theme = {
  colorScheme: "light",
  tokens: {
    background: "#f6f6f4",
    surface: "#ffffff",
    text: "#1b1b1f",
    muted: "#5c5c66",
    accent: "#2458c6",
    danger: "#b3261e",
    border: "#d9d9de",
    focusRing: "#2458c6"
  }
}

export const dark: Theme = {
  colorScheme: "dark",
  tokens: {
    background: "#121215",
    surface: "#1c1c21",
    text: "#ececf1",
    muted: "#a3a3ad",
    accent: "#82abff",
    danger: "#ff7b72",
    border: "#34343c",
    focusRing: "#82abff"
  }
}
