/** The square's events, to everyone: a post, a post hidden, the square's mood. */
import * as Schema from "effect/Schema"
import { event } from "../../../kernel/contract/events.ts"
import { Mood, Post } from "./records.ts"

export const SquarePost = event("square.post", { post: Post })
/** Ours: moderation hid a post, so open pages drop it. */
export const SquareRetracted = event("square.retracted", { postId: Schema.String })
export const Ambient = event("ambient", { mood: Mood, hint: Schema.optional(Schema.String) })

declare module "../../../kernel/contract/events.ts" {
  interface BusEvents {
    "square.post": typeof SquarePost.Type
    "square.retracted": typeof SquareRetracted.Type
    ambient: typeof Ambient.Type
  }
}
