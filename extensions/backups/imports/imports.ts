/**
 * The import: each file part of the request read whole (within MAX_IMPORT_BYTES) and recognised by its content — a
 * calendar, a note, a ZIP of notes (a vault) — and written into the caller's own twin, one file at a time, each in
 * one transaction. A file that cannot be read becomes a problem named in the answer; what the others brought stays.
 */
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as Multipart from "@effect/platform/Multipart"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as Fflate from "fflate"
import type { Caller } from "../../accounts/contract/session.ts"
import { ImportTooLarge, MalformedImport, NoImportFile } from "./contract/errors.ts"
import type { ImportResult } from "./contract/records.ts"
import { isCalendar, readCalendar } from "./calendar-file.ts"
import { ImportRepository, noteMemoryIdOf, threadIdOf } from "./import-repository.ts"
import { readConversations } from "./chatgpt-file.ts"
import { ThreadLearning } from "../../threads/contract/ports.ts"
import { isNoteName, readNote } from "./notes-file.ts"
import { lazyModule } from "../../../kernel/lazy-module.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const fflate = lazyModule<typeof Fflate>("fflate")

/** An entry of a ZIP read at most this large, and all of one ZIP's entries together. */
const MAX_ENTRY_BYTES = 20 * 1024 * 1024
const MAX_UNZIPPED_BYTES = 512 * 1024 * 1024

interface Tally {
  events: number
  todos: number
  memories: number
  threads: number
  skipped: number
  problems: Array<string>
}

const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04

const isChatGpt = (name: string) => /(^|\/)conversations\.json$/i.test(name)

/** Text that is UTF-8 without NUL bytes, or null. */
const textOf = (bytes: Uint8Array) => {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes)
    return text.includes("\u0000") ? null : text
  } catch {
    return null
  }
}

/** Entries of a vault worth reading: not folders, not hidden (`.obsidian/`), not a Mac's resource forks. */
const readableEntry = (name: string) =>
  !name.endsWith("/") && !name.split("/").some((part) => part.startsWith(".") || part === "__MACOSX")

export class Imports extends Effect.Service<Imports>()("imports/Imports", {
  effect: Effect.gen(function* () {
    const repository = yield* ImportRepository

    const importCalendar = (beingId: string, name: string, text: string, tally: Tally, now: string) =>
      Effect.gen(function* () {
        const calendar = yield* Effect.try(() => readCalendar(text)).pipe(
          Effect.catchAll((error) => {
            tally.problems.push(`${name}: not a calendar this node can read (${String(error.error).slice(0, 200)})`)
            return Effect.succeed(null)
          })
        )
        if (calendar === null) return
        yield* repository.transaction(
          Effect.all([
            Effect.forEach(calendar.events, (event) => repository.saveEvent(beingId, event, now), { discard: true }),
            Effect.forEach(calendar.todos, (todo) => repository.saveTodo(beingId, todo, now), { discard: true })
          ])
        )
        tally.events += calendar.events.length
        tally.todos += calendar.todos.length
        tally.problems.push(...calendar.problems.map((problem) => `${name}: ${problem}`))
      })

    const importNote = (beingId: string, name: string, text: string, tally: Tally, now: string) =>
      Effect.gen(function* () {
        const note = readNote(name, text)
        if (note === null) {
          tally.problems.push(`${name}: the note holds no text`)
          return
        }
        const stored = yield* repository.transaction(
          Effect.forEach(note.parts, (content, part) =>
            repository.saveNoteMemory(
              beingId,
              {
                id: noteMemoryIdOf(beingId, note.hash, part),
                content,
                tags: note.tags,
                source: `import:${name}`.slice(0, 200)
              },
              now
            )
          )
        )
        const made = stored.filter(Boolean).length
        tally.memories += made
        if (made === 0) tally.skipped += 1
      })

    /** Each conversation a read-only thread; the person's own messages go to the twin's learning, as typed ones do. */
    const importConversations = (beingId: string, name: string, text: string, tally: Tally) =>
      Effect.gen(function* () {
        const conversations = readConversations(text)
        if (conversations === null) {
          tally.problems.push(`${name}: not a ChatGPT export (a list of conversations)`)
          return
        }
        const learning = yield* Effect.serviceOption(ThreadLearning)
        for (const conversation of conversations) {
          const threadId = threadIdOf(beingId, conversation.key)
          const messages = conversation.messages.map((message, index) => ({
            id: `${threadId}-${String(index).padStart(6, "0")}`,
            role: message.role,
            content: message.text,
            createdAt: message.at
          }))
          const made = yield* repository.transaction(
            repository.saveThread(
              beingId,
              { id: threadId, title: conversation.title, createdAt: conversation.createdAt },
              messages
            )
          )
          if (!made) {
            tally.skipped += 1
            continue
          }
          tally.threads += 1
          if (Option.isNone(learning)) continue
          for (const message of messages.filter((message) => message.role === "user"))
            yield* learning.value.heard(beingId, "thread", {
              ...message,
              threadId,
              authorId: beingId,
              attachments: [],
              toolCalls: []
            })
        }
      })

    const importText = (beingId: string, name: string, text: string, tally: Tally, now: string) =>
      isCalendar(text)
        ? importCalendar(beingId, name, text, tally, now)
        : isChatGpt(name)
          ? importConversations(beingId, name, text, tally)
          : importNote(beingId, name, text, tally, now)

    const importZip = (beingId: string, name: string, bytes: Uint8Array, tally: Tally, now: string) =>
      Effect.gen(function* () {
        let total = 0
        const entries = yield* Effect.try(() =>
          fflate().unzipSync(bytes, {
            filter: (file) => {
              const wanted =
                readableEntry(file.name) && (isNoteName(file.name) || /\.ics$/i.test(file.name) || isChatGpt(file.name))
              if (!wanted) return false
              if (file.originalSize > MAX_ENTRY_BYTES || total + file.originalSize > MAX_UNZIPPED_BYTES) {
                tally.problems.push(`${name}/${file.name}: larger than an imported file may be`)
                return false
              }
              total += file.originalSize
              return true
            }
          })
        ).pipe(
          Effect.catchAll(() => {
            tally.problems.push(`${name}: a ZIP this node cannot open`)
            return Effect.succeed({} as Record<string, Uint8Array>)
          })
        )
        for (const [entry, content] of Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1))) {
          const text = textOf(content)
          if (text === null) tally.problems.push(`${name}/${entry}: not UTF-8 text`)
          else yield* importText(beingId, `${name}/${entry}`, text, tally, now)
        }
      })

    const importFile = (beingId: string, name: string, bytes: Uint8Array, tally: Tally, now: string) => {
      if (isZip(bytes)) return importZip(beingId, name, bytes, tally, now)
      const text = textOf(bytes)
      if (text !== null && (isCalendar(text) || isChatGpt(name) || isNoteName(name) || !/\.[a-z0-9]+$/i.test(name)))
        return importText(beingId, name, text, tally, now)
      return Effect.sync(() =>
        tally.problems.push(`${name}: not a calendar (.ics), a note (.md, .txt), a zipped vault or a ChatGPT export`)
      )
    }

    /** Reads every file part of `request` into the caller's twin. */
    const run = fnNamed("imports.run")(function* (caller: Caller, request: HttpServerRequest.HttpServerRequest) {
      const now = new Date(yield* Clock.currentTimeMillis).toISOString()
      const tally: Tally = { events: 0, todos: 0, memories: 0, threads: 0, skipped: 0, problems: [] }
      let files = 0
      // The body's limit (MAX_IMPORT_BYTES, set on the request by the route's policy), counted here as the parts are
      // read, in place of the multipart parser's own count: that one fails the parts' stream, not a part's content
      // being read, so a body streamed without a length past it waited forever.
      const limit = Option.match(yield* HttpIncomingMessage.MaxBodySize, {
        onNone: () => Number.POSITIVE_INFINITY,
        onSome: Number
      })
      let bytes = 0
      const count = (chunk: Uint8Array) => {
        bytes += chunk.length
        return bytes > limit
          ? Effect.fail(
              new ImportTooLarge({ message: "The import is larger than this node takes (MAX_IMPORT_BYTES)." })
            )
          : Effect.void
      }
      const contentOf = (file: Multipart.File) =>
        Effect.map(Stream.runCollect(Stream.tap(file.content, count)), (chunks) => Buffer.concat([...chunks]))
      yield* request.multipartStream.pipe(
        Stream.runForEach((part) => {
          if (part._tag !== "File") return count(Buffer.from((part as Multipart.Field).value))
          files += 1
          const file = part as Multipart.File
          const name = (
            file.name.slice(Math.max(file.name.lastIndexOf("/"), file.name.lastIndexOf("\\")) + 1) || "file"
          ).slice(0, 200)
          return Effect.flatMap(contentOf(file), (bytes) =>
            importFile(caller.beingId, name, bytes, tally, now).pipe(
              Effect.orDie,
              Effect.catchAllDefect((defect) =>
                Effect.sync(() => tally.problems.push(`${name}: ${String(defect).slice(0, 200)}`))
              )
            )
          )
        }),
        Effect.catchAll((error) =>
          Effect.fail<ImportTooLarge | MalformedImport>(
            error._tag === "ImportTooLarge"
              ? error
              : error.reason === "BodyTooLarge" || error.reason === "FileTooLarge"
                ? new ImportTooLarge({ message: "The import is larger than this node takes (MAX_IMPORT_BYTES)." })
                : new MalformedImport({ message: "The multipart body could not be read." })
          )
        ),
        HttpIncomingMessage.withMaxBodySize(Option.none())
      )
      if (files === 0)
        return yield* new NoImportFile({ message: "Send at least one file part (a form field with a filename)." })
      const result: ImportResult = {
        imported: { events: tally.events, todos: tally.todos, memories: tally.memories, threads: tally.threads },
        skipped: tally.skipped,
        problems: tally.problems
      }
      return result
    })

    return { run } as const
  })
}) {}
