/**
 * Ids of threads and messages that sort in the order they were made (the time, then a counter
 * within one millisecond, then randomness), so a thread reads in order even when a reply is
 * stored in the same millisecond as the message it answers.
 */
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { nowMillis } from "../../kernel/time.ts"

let counter = 0

export const newId = Effect.map(nowMillis, (ms) => {
  counter = (counter + 1) % 1_679_616
  return `${ms.toString(36).padStart(9, "0")}${counter.toString(36).padStart(4, "0")}${randomBytes(6).toString("base64url")}`
})
