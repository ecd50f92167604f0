/** The chat bridge's Muse, bound to the threads' `MuseChat` (their `askMuse`): the web composer's reply path. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MuseReplies } from "./chat-bridge/ports.ts"
import { MuseChat } from "../threads/contract/muse-chat.ts"

export const MuseRepliesLive = Layer.effect(
  MuseReplies,
  Effect.map(MuseChat, (muse) => ({
    ask: (beingId: string, content: string) => Effect.map(muse.ask(beingId, content), (message) => message.content)
  }))
)
