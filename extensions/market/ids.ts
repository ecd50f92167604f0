/** Ids of the market's rows: 16 url-safe random characters, like the rest of the node's. */
import { randomBytes } from "node:crypto"

export const newId = () => randomBytes(12).toString("base64url")

let lastTick = 0

/**
 * An id that sorts after every one made before it by this process (and, through the clock, by
 * earlier ones): ledger entries written in the same millisecond (a starting credit and the first
 * purchase, in one transaction) still list in the order they were written.
 */
export const orderedId = () => {
  lastTick = Math.max(lastTick + 1, Date.now() * 1000)
  return `${lastTick.toString().padStart(17, "0")}${randomBytes(3).toString("base64url")}`
}
