/**
 * The passphrase secrets are sealed with when `ENCRYPTION_KEY` is unset: on a node of one process
 * (SQLite), a random one the node makes on the first secret it seals and keeps in
 * `<DATA_DIR>/keys/encryption-key` (mode 0600), so an owner can save a model key or a connection
 * from the web app without a setting and a restart. The runners of a cluster (PostgreSQL) each have
 * a DATA_DIR of their own, where a key made by one would not open on another: there the setting
 * stays required. A backup carries the file (docs/operations.md).
 */
import { randomBytes } from "node:crypto"
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { SettingsShape } from "../../../kernel/settings.ts"

/** Where a node of one process keeps the key it made; None on a cluster's shared database. */
export const keptKeyPath = (settings: Pick<SettingsShape, "dataDir" | "databaseUrl">): Option.Option<string> =>
  Option.isSome(settings.databaseUrl)
    ? Option.none()
    : Option.some(join(resolve(settings.dataDir), "keys", "encryption-key"))

const readKey = (path: string) =>
  Effect.promise(() =>
    readFile(path, "utf8").then(
      (text) => Option.some(text.trim()),
      () => Option.none<string>()
    )
  )

/** The kept key, if the node has made one. */
export const keptKey = (path: string): Effect.Effect<Option.Option<string>> => readKey(path)

/**
 * The kept key, made now if there is none. `wx` makes it once: a second writer at the same moment
 * (two requests sealing at once) fails to create and reads the first one's.
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
