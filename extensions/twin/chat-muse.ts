/** The chat bridge's Muse, bound to the threads feature's `askMuse`: the web composer's reply path. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MuseReplies } from "./chat-bridge/ports.ts"
import { Threads } from "../threads/threads.ts"
import { threadsFeature } from "../threads/feature.ts"

export const MuseRepliesLive = Layer.effect(
  MuseReplies,
  Effect.map(Threads, (threads) => ({ ask: (beingId: string, content: string) => Effect.map(threads.askMuse(beingId, content), (message) => message.content) }))
).pipe(Layer.provide(threadsFeature))
