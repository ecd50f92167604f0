/**
 * One person's export: the entries of the ZIP, read from their own rows (export-repository.ts) and their projects'
 * outputs on disk, generated as the archive is written. Names in the archive are slugs of titles with the id beside
 * them, so two threads or projects of one title never collide and every name is safe on any file system.
 */
import * as Arr from "effect/Array"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type * as CsvStringify from "csv-stringify/sync"
import { stat } from "node:fs/promises"
import { join } from "node:path"
import type * as Yaml from "yaml"
import { lazyModule } from "../../../kernel/lazy-module.ts"
import { fileStoreRoot } from "../../../kernel/file-stores.ts"
import { Settings } from "../../../kernel/settings.ts"
import { calendarText } from "./calendar.ts"
import { ExportRepository, MEMORY_PAGE, type MemoryRow } from "./export-repository.ts"
import type { ZipSource } from "./zip-stream.ts"

const csvOf = lazyModule<typeof CsvStringify>("csv-stringify/sync")

/** Loaded at the first export, not at start: an idle node does not hold it. */
const yamlOf = lazyModule<typeof Yaml>("yaml")

export const slugOf = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "untitled"

const tagsOf = (memory: MemoryRow): Array<string> => {
  try {
    const tags = JSON.parse(memory.tags) as unknown
    return Array.isArray(tags) ? tags.map(String) : []
  } catch {
    return []
  }
}

const memoryRecord = (memory: MemoryRow) => ({
  id: memory.id,
  kind: memory.kind,
  content: memory.content,
  tags: tagsOf(memory),
  importance: memory.importance,
  source: memory.source,
  createdAt: memory.created_at
})

export const memoryMarkdown = (memory: MemoryRow) => {
  const { id: _id, content, ...front } = memoryRecord(memory)
  return `---\n${yamlOf().stringify(front)}---\n\n${content}\n`
}

const readme = (handle: string, at: string) => `# Your data from this node

Exported for @${handle} at ${at}. Everything here is yours, in formats other programs read:

- \`profile.json\`: your account and your twin's profile.
- \`memories.jsonl\`: every memory, one JSON object a line; \`memories/<id>.md\`: the same as Markdown notes with
  YAML front matter (kind, tags, importance, source, createdAt), which Obsidian and other note apps open.
- \`calendar.ics\`: your events (with their repeat rules) and your to-dos, as iCalendar (RFC 5545).
- \`threads/<title>-<id>.md\`: your conversations, one Markdown file each.
- \`projects/<slug>/\`: each studio project's outputs, its plan (\`plan.json\`) and its trace (\`trace.jsonl\`).
- \`ledger.csv\`: your wallet's entries (credits in and out).

Import it back (or into another node) with Settings → Your data → Import: the calendar and the notes are read as
they are here.
`

export const exportFileName = (handle: string, at: string) => `export-${handle}-${at.slice(0, 10)}.zip`

/** The archive's entries for `beingId`, each read when the ZIP reaches it. */
export const exportSources = (beingId: string, handle: string, at: string) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const repository = yield* ExportRepository
      const settings = yield* Settings
      const projectsRoot = fileStoreRoot(settings, "projects")
      const one = <A>(read: Effect.Effect<A, unknown>, make: (value: A) => ZipSource | ReadonlyArray<ZipSource>) =>
        Stream.fromIterableEffect(
          Effect.map(Effect.orDie(read), (value) => {
            const made = make(value)
            return Array.isArray(made) ? made : [made as ZipSource]
          })
        )

      const lines: Array<string> = []
      const memories = Stream.paginateChunkEffect(0, (after: number) =>
        Effect.map(Effect.orDie(repository.memories(beingId, after)), (page) => {
          const sources = page.map((memory): ZipSource => {
            lines.push(JSON.stringify(memoryRecord(memory)))
            return { name: `memories/${memory.id}.md`, text: memoryMarkdown(memory) }
          })
          const next = page.length < MEMORY_PAGE ? Option.none() : Option.some(page[page.length - 1]!.seq)
          return [Chunk.fromIterable(sources), next] as const
        })
      )

      const threads = Stream.flatMap(Stream.fromIterableEffect(Effect.orDie(repository.threads(beingId))), (thread) =>
        one(repository.messages(thread.id), (messages) => {
          const title = thread.title.trim() === "" ? `${thread.kind} thread` : thread.title
          const body = messages
            .map((message) => `## ${message.author ?? message.role} · ${message.created_at}\n\n${message.content}\n`)
            .join("\n")
          return { name: `threads/${slugOf(title)}-${thread.id}.md`, text: `# ${title}\n\n${body}` }
        })
      )

      const projects = Stream.flatMap(
        Stream.fromIterableEffect(Effect.orDie(repository.projects(beingId))),
        (project) => {
          const folder = `projects/${slugOf(project.title)}-${project.id}`
          return Stream.concat(
            one(
              Effect.all({ tasks: repository.tasks(project.id), traces: repository.traces(project.id) }),
              ({ tasks, traces }) => [
                { name: `${folder}/plan.json`, text: `${JSON.stringify({ ...project, tasks }, null, 2)}\n` },
                { name: `${folder}/trace.jsonl`, text: traces.map((trace) => `${JSON.stringify(trace)}\n`).join("") }
              ]
            ),
            Stream.fromIterableEffect(
              Effect.flatMap(Effect.orDie(repository.outputs(project.id)), (outputs) =>
                Effect.map(
                  Effect.forEach(outputs, (output) => {
                    const file = join(projectsRoot, project.id, "workspace", ...output.path.split("/"))
                    return Effect.promise(() =>
                      stat(file).then(
                        (stats) =>
                          stats.isFile() && !output.path.split("/").includes("..")
                            ? Option.some<ZipSource>({ name: `${folder}/${output.path}`, file })
                            : Option.none(),
                        () => Option.none<ZipSource>()
                      )
                    )
                  }),
                  Arr.getSomes
                )
              )
            )
          )
        }
      )

      return Stream.concat(
        one(Effect.all({ being: repository.being(beingId), profile: repository.profile(beingId) }), (account) => [
          { name: "README.md", text: readme(handle, at) },
          { name: "profile.json", text: `${JSON.stringify({ ...account.being, profile: account.profile }, null, 2)}\n` }
        ]),
        Stream.concat(
          Stream.concat(
            memories,
            Stream.sync(() => ({ name: "memories.jsonl", text: lines.length === 0 ? "" : `${lines.join("\n")}\n` }))
          ),
          Stream.concat(
            one(Effect.all({ events: repository.events(beingId), todos: repository.todos(beingId) }), (calendar) => ({
              name: "calendar.ics",
              text: calendarText(calendar.events, calendar.todos)
            })),
            Stream.concat(
              Stream.concat(threads, projects),
              one(repository.ledger(beingId), (ledger) => ({
                name: "ledger.csv",
                text: csvOf().stringify([...ledger], {
                  header: true,
                  columns: ["created_at", "amount", "reason", "counterparty", "movement_id", "order_id", "id"]
                })
              }))
            )
          )
        )
      )
    })
  )
