/** The themes feature's named refusals (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A theme to wear that is neither built in nor the being's own copy. */
export class ThemeNotFound extends refusal(404, "ThemeNotFound", "theme_not_found") {}
