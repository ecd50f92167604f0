/**
 * What the chat bridge needs from features it does not own, as ports the host binds
 * (extensions/twin/chat-bot.ts, chat-muse.ts): the node's own bot (the Bot API base and `CHAT_A_BOT_TOKEN`, the
 * integrations' settings), and the Muse (the threads feature's `askMuse`: the text appended to
 * the being's muse thread, answered by the same reply path as the web composer).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export class ChatBot extends Context.Tag("twin/ChatBot")<
  ChatBot,
  {
    readonly apiUrl: string
    /** The node's bot token, used by a being that saved none of its own. */
    readonly serverToken: Option.Option<Redacted.Redacted<string>>
  }
>() {}

export class MuseReplies extends Context.Tag("twin/MuseReplies")<
  MuseReplies,
  {
    /** The reply's text; a Muse that cannot answer (no model bound) says why in it. */
    readonly ask: (beingId: string, content: string) => Effect.Effect<string>
  }
>() {}
