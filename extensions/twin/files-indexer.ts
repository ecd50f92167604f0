/**
 * The files provider's one pass over a folder of FILES_ROOT: every text file becomes `document`
 * memories (a file cut into pieces of at most CHUNK characters, each headed by its path), each
 * indexed file writes an `indexed_file` activity, and the index mirrors the folder: a file
 * unchanged since the last pass (same size and mtime, or the same content hash) is left alone, a
 * changed one has its memories replaced, and one gone from the folder has its memories removed.
 * Each new or changed file's text is also queued for the learning loop (learning-queue.ts).
 */
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import type { Caller } from "../accounts/contract/session.ts"
import { nowIso } from "../../kernel/time.ts"
import { Activity } from "./activity.ts"
import { chunksOf, summaryOf } from "./chunks.ts"
import { LearningQueue } from "./learning-queue.ts"
import { Memories } from "./memories.ts"
import { TwinFolders } from "./ports.ts"
import { IndexedFilesRepository, type IndexedFile } from "./repositories/indexed-files-repository.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** Files one pass indexes; the rest wait for a narrower folder (counted as `skipped`). */
export const MAX_SYNC_FILES = 2000
/** The largest file indexed: what files.read answers whole. */
export const MAX_INDEXED_BYTES = 1024 * 1024
/** Characters of a file in one memory (the memory's path heading stays within its 4000). */
export const CHUNK = 3500

export type SyncCounts = {
  /** Text files found in the folder. */
  files: number
  indexed: number
  unchanged: number
  removed: number
  skipped: number
  memories: number
}

const extensionOf = (path: string) => {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  return dot <= 0
    ? ""
    : name
        .slice(dot + 1)
        .toLowerCase()
        .slice(0, 64)
}

export class FilesIndexer extends Effect.Service<FilesIndexer>()("twin/FilesIndexer", {
  dependencies: [Memories.Default, Activity.Default, IndexedFilesRepository.Default, LearningQueue.Default],
  effect: Effect.gen(function* () {
    const memories = yield* Memories
    const learningQueue = yield* LearningQueue
    const activity = yield* Activity
    const indexed = yield* IndexedFilesRepository
    const folders = yield* TwinFolders

    /** Removes a file's memories (one deleted by hand since is already gone) and its index row. */
    const forget = (beingId: string, file: IndexedFile) =>
      Effect.zipRight(
        Effect.forEach(file.memoryIds, (id) => Effect.ignore(memories.remove(beingId, id)), { discard: true }),
        indexed.remove({ beingId, path: file.path })
      )

    const remember = (beingId: string, path: string, text: string) =>
      Effect.forEach(chunksOf(text, CHUNK), (chunk) =>
        Effect.map(
          memories.store(
            beingId,
            {
              kind: "document",
              content: `${path.slice(-400)}\n${chunk}`,
              importance: 0.3,
              tags: ["file", extensionOf(path)].filter((tag) => tag !== ""),
              source: `files:${path}`.slice(0, 200)
            },
            { skipNearDuplicates: false }
          ),
          (stored) => stored.memory.id
        )
      )

    const index = fnNamed("twin.indexFolder")(function* (caller: Caller, folder: string) {
      const beingId = caller.beingId
      const found = yield* folders.textFiles(caller, folder, MAX_SYNC_FILES + 1)
      const known = new Map((yield* indexed.list(beingId)).map((file) => [file.path, file]))
      const counts: SyncCounts = {
        files: found.length,
        indexed: 0,
        unchanged: 0,
        removed: 0,
        skipped: Math.max(0, found.length - MAX_SYNC_FILES),
        memories: 0
      }
      // Files past the limit keep what an earlier pass made of them.
      for (const file of found.slice(MAX_SYNC_FILES)) known.delete(file.path)
      for (const file of found.slice(0, MAX_SYNC_FILES)) {
        const before = known.get(file.path)
        known.delete(file.path)
        if (before !== undefined && before.size === file.size && before.mtime === file.mtime) {
          counts.unchanged++
          continue
        }
        const text = yield* folders.readText(caller, file.path, MAX_INDEXED_BYTES)
        if (text === null || text.trim() === "") {
          // Not text (any more), too large, or gone since the listing: nothing of it is kept.
          if (before !== undefined) yield* forget(beingId, before)
          counts.skipped++
          continue
        }
        const hash = createHash("sha256").update(text).digest("hex")
        const at = yield* nowIso
        if (before !== undefined && before.hash === hash) {
          yield* indexed.save({ ...before, size: file.size, mtime: file.mtime })
          counts.unchanged++
          continue
        }
        if (before !== undefined) yield* forget(beingId, before)
        const memoryIds = yield* remember(beingId, file.path, text)
        yield* indexed.save({
          beingId,
          path: file.path,
          size: file.size,
          mtime: file.mtime,
          hash,
          memoryIds,
          summary: summaryOf(text),
          indexedAt: at
        })
        // The learning loop reads each version of a file once: the reference names its content.
        yield* learningQueue.enqueue(beingId, "file", `${hash}:${file.path}`, `${file.path}\n${text}`)
        yield* activity.record(
          beingId,
          "indexed_file",
          `Indexed ${file.path} (${memoryIds.length} ${memoryIds.length === 1 ? "memory" : "memories"})`
        )
        counts.indexed++
        counts.memories += memoryIds.length
      }
      // What the index holds but the folder no longer does (deleted, or outside the folder named now).
      for (const gone of known.values()) {
        yield* forget(beingId, gone)
        counts.removed++
      }
      return counts
    })

    return { index, count: indexed.count } as const
  })
}) {}
