/**
 * A being's words to its own Muse and the Muse's reply, as the web composer sends them, for another
 * channel to carry (the twin's chat bridge). Implemented by the threads (`Threads.askMuse`).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Message } from "./records.ts"

export interface MuseChatShape {
  /** Posts the being's words in its Muse thread and answers the Muse's reply once it is written. */
  readonly ask: (beingId: string, content: string) => Effect.Effect<Message>
}

export class MuseChat extends Context.Tag("threads/MuseChat")<MuseChat, MuseChatShape>() {}
