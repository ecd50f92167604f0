/**
 * ENCRYPTION_KEY as a file, `<DATA_DIR>/keys/ENCRYPTION_KEY` (mode 0600), read when the environment sets no
 * ENCRYPTION_KEY (the environment wins). Two ways it comes to be: a node of one process (SQLite) makes a random key
 * there on the first secret it seals, so an owner can save a model key or a connection from the web app with no
 * setting and no restart; and a restore (`npm run restore`) writes the backed-up key material there, so a restored
 * node's sealed secrets open without anyone copying a key by hand. The runners of a cluster (PostgreSQL) each have a
 * DATA_DIR of their own, where a key made by one would not open on another: there the setting stays required.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { SettingsShape } from "./settings.ts"

export const encryptionKeyFileOf = (dataDir: string): string => join(resolve(dataDir), "keys", "ENCRYPTION_KEY")

/** The key file's material, or null when there is none (or it is empty). */
export const readEncryptionKeyFile = (dataDir: string): string | null => {
  try {
    const text = readFileSync(encryptionKeyFileOf(dataDir), "utf8").trim()
    return text === "" ? null : text
  } catch {
    return null
  }
}

/** Where a node of one process keeps its key; None on a cluster's shared database, where the setting is needed. */
export const keptKeyPath = (settings: Pick<SettingsShape, "dataDir" | "databaseUrl">): Option.Option<string> =>
  Option.isSome(settings.databaseUrl) ? Option.none() : Option.some(encryptionKeyFileOf(settings.dataDir))

const readKey = (path: string) =>
  Effect.promise(() =>
    readFile(path, "utf8").then(
      (text) => (text.trim() === "" ? Option.none<string>() : Option.some(text.trim())),
      () => Option.none<string>()
    )
  )

/** The kept key, if the node has one. */
export const keptKey = (path: string): Effect.Effect<Option.Option<string>> => readKey(path)

/**
 * The kept key, made now if there is none. `wx` makes it once: a second writer at the same moment (two requests
 * sealing at once) fails to create and reads the first one's.
 */
export const keptKeyOrMade = (path: string): Effect.Effect<string> =>
  Effect.flatMap(readKey(path), (kept) =>
    Option.match(kept, {
      onSome: Effect.succeed,
      onNone: () =>
        Effect.promise(async () => {
          await mkdir(dirname(path), { recursive: true, mode: 0o700 })
          const made = randomBytes(32).toString("base64")
          try {
            await writeFile(path, `${made}\n`, { mode: 0o600, flag: "wx" })
            return made
          } catch {
            return (await readFile(path, "utf8")).trim()
          }
        })
    })
  )
