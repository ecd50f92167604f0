/**
 * The move of an old data folder's stores under FILES_DIR: only what is not there yet moves, a
 * second start moves nothing, and FILES_DIR equal to the data folder is left as it is.
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileStoreRoot, filesDirOf, moveOldFileStores } from "../../../kernel/file-stores.ts"

const made: Array<string> = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const oldDataDir = () => {
  const dataDir = mkdtempSync(join(tmpdir(), "file-stores-"))
  made.push(dataDir)
  for (const [store, file] of [
    ["uploads", "ada/a.txt"],
    ["projects", "p1/workspace/b.md"]
  ] as const) {
    mkdirSync(join(dataDir, store, file, ".."), { recursive: true })
    writeFileSync(join(dataDir, store, file), `${store} before`)
  }
  return dataDir
}

/** Runs the move, answering the lines it logged. */
const moveLogging = (settings: Parameters<typeof moveOldFileStores>[0]) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ message }) => lines.push(String(message)))
  return moveOldFileStores(settings).pipe(
    Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
    Effect.as(lines)
  )
}

describe("moving an old data folder's stores", () => {
  it.effect("moves each store not yet under FILES_DIR, once, and leaves one present in both places alone", () =>
    Effect.gen(function* () {
      const dataDir = oldDataDir()
      const settings = { dataDir, filesDir: Option.none() }
      mkdirSync(fileStoreRoot(settings, "projects"), { recursive: true })
      writeFileSync(join(fileStoreRoot(settings, "projects"), "kept.md"), "already there")

      expect(yield* moveLogging(settings)).toEqual([
        `Moved uploads from the data folder to FILES_DIR (${filesDirOf(settings)}).`
      ])
      expect(readFileSync(join(fileStoreRoot(settings, "uploads"), "ada", "a.txt"), "utf8")).toBe("uploads before")
      // Both places hold projects: the operator decides, nothing is merged or lost.
      expect(readFileSync(join(dataDir, "projects", "p1", "workspace", "b.md"), "utf8")).toBe("projects before")
      expect(readFileSync(join(fileStoreRoot(settings, "projects"), "kept.md"), "utf8")).toBe("already there")

      expect(yield* moveLogging(settings)).toEqual([])
    })
  )

  it.effect("moves nothing when FILES_DIR is the data folder itself", () =>
    Effect.gen(function* () {
      const dataDir = oldDataDir()
      expect(yield* moveLogging({ dataDir, filesDir: Option.some(dataDir) })).toEqual([])
      expect(readFileSync(join(dataDir, "uploads", "ada", "a.txt"), "utf8")).toBe("uploads before")
    })
  )
})
