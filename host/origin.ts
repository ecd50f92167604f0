import type { SettingsShape } from "../kernel/settings.ts"
import * as Option from "effect/Option"

/** The origin people reach the node at: PUBLIC_URL, else the address it listens on. */
export const publicOrigin = (settings: SettingsShape): string =>
  Option.getOrElse(settings.publicUrl, () => `http://${settings.host}:${settings.port}`).replace(/\/+$/, "")
