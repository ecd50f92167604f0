/** Ids of the market's rows: 16 url-safe random characters, like the rest of the node's. */
import { randomBytes } from "node:crypto"

export const newId = () => randomBytes(12).toString("base64url")
