/**
 * The chat bridge's bot, bound to the integrations' chat_a settings: the Bot API base and `CHAT_A_BOT_TOKEN`, as
 * chat_a.send uses them.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ChatBot } from "./chat-bridge/ports.ts"
import { IntegrationSettings } from "../comms/contract/integration-settings.ts"

export const ChatBotLive = Layer.effect(
  ChatBot,
  Effect.map(IntegrationSettings, (settings) => ({ apiUrl: settings.chatAApiUrl, serverToken: settings.chatABotToken }))
)
