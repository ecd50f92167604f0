/** The chat bridge's own setting (docs/operations.md): how long one `getUpdates` long poll waits. */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { settingsLayer } from "../../../kernel/settings.ts"

export const chatBridgeSettingsConfig = Config.all({
  /** Seconds the Bot API holds one getUpdates open when nothing arrives (Telegram allows up to 50). */
  chatAPollTimeoutSeconds: Config.integer("CHAT_A_POLL_TIMEOUT_SECONDS").pipe(
    Config.withDefault(25),
    Config.validate({
      message: "CHAT_A_POLL_TIMEOUT_SECONDS must be a whole number of seconds from 1 to 50",
      validation: (n) => n >= 1 && n <= 50
    })
  )
})

export type ChatBridgeSettingsShape = Config.Config.Success<typeof chatBridgeSettingsConfig>

export class ChatBridgeSettings extends Context.Tag("twin/ChatBridgeSettings")<
  ChatBridgeSettings,
  ChatBridgeSettingsShape
>() {
  static readonly layer = (overrides?: Partial<ChatBridgeSettingsShape>) =>
    settingsLayer(ChatBridgeSettings, chatBridgeSettingsConfig, overrides)
}
