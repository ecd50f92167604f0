/**
 * What the threads hand to features they do not own, and those features bind (so a binding names
 * this contract, never the threads' inner files): the federation's outbox and the twin's learning
 * queue. Both optional: unbound, nothing leaves and nothing is learned.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Message } from "./records.ts"

/**
 * Where a message posted in a direct thread may also go: the federation binds it, and queues the
 * message for a peer node when the thread is a federated conversation's local half. Optional:
 * unbound, nothing leaves.
 */
export class ThreadOutbound extends Context.Tag("threads/ThreadOutbound")<
  ThreadOutbound,
  {
    readonly posted: (message: Message) => Effect.Effect<void>
  }
>() {}

/**
 * Where the being's own words to its Muse go to be learned from: the twin binds it to its learning
 * queue. `thread`: typed in a muse thread; `chat`: sent through the chat bridge. Only ever called
 * with the caller's own message in its own muse thread, never the Muse's reply nor another
 * being's text. Optional: unbound, nothing is learned.
 */
export class ThreadLearning extends Context.Tag("threads/ThreadLearning")<
  ThreadLearning,
  {
    readonly heard: (beingId: string, source: "thread" | "chat", message: Message) => Effect.Effect<void>
  }
>() {}
