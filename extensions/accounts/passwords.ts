/**
 * Password hashing with bcrypt at 10 rounds. Login always runs one comparison: against the
 * account's hash, or against a dummy hash when there is no usable one, so the answer's timing
 * says nothing about which addresses exist.
 */
import bcrypt from "bcrypt"
import { randomBytes } from "node:crypto"
import * as Effect from "effect/Effect"

const ROUNDS = 10

/** A stored hash that no password matches: what suspension puts in place of the real one. */
export const UNUSABLE_HASH = "!suspended"

export const hashPassword = (password: string) => Effect.promise(() => bcrypt.hash(password, ROUNDS))

/** Hashed off the main thread while the node starts, instead of blocking the start for ~55 ms. */
const dummyHash = bcrypt.hash(randomBytes(16).toString("hex"), ROUNDS)

/** Compares once, whatever the stored hash is; false for a missing or unusable one. */
export const checkPassword = (password: string, hash: string | null) =>
  Effect.promise(async () => {
    const usable = hash !== null && hash.startsWith("$2")
    const matches = await bcrypt.compare(password, usable ? hash : await dummyHash)
    return usable && matches
  })
