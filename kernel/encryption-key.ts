/**
 * ENCRYPTION_KEY as a file: a restore (`npm run restore`, or the register page's) writes the backed-up key material
 * to `<DATA_DIR>/keys/ENCRYPTION_KEY` (mode 0600), and a node whose environment sets no ENCRYPTION_KEY reads it there,
 * so the sealed secrets of a restored node open without anyone copying a key by hand. The environment wins.
 */
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

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
