/**
 * One pass of a provider that reads a service through the being's connection (ports.ts
 * RemoteSync, mail_a's mailbox): what the provider answers is validated against
 * ProviderSyncResult, whoever wrote the provider, and each item not remembered before becomes an
 * `episode` memory whose source is `<provider>:<item id>`, so a re-sync of the same message
 * remembers nothing twice. Each memory stored is published as `memory.created` by Memories. A
 * mailbox's new messages (a `read_email` provider) are also queued for the learning loop.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ProviderSyncResult, type ProviderSyncItem } from "./contract/records.ts"
import { LearningQueue } from "./learning-queue.ts"
import { Memories } from "./memories.ts"
import type { RemoteConnection, RemoteSync } from "./ports.ts"
import { MemoriesRepository } from "./repositories/memories-repository.ts"
import { fnNamed } from "../../kernel/spans.ts"

export type RemoteCounts = {
  items: number
  remembered: number
  known: number
  cursor: string
  note: string
}

const sourceOf = (provider: string, item: ProviderSyncItem) => `${provider}:${item.id}`.slice(0, 200)

const contentOf = (item: ProviderSyncItem) => {
  const heading = [item.title, item.at === null ? "" : `(${item.at})`].filter((part) => part !== "").join(" ")
  return (heading === "" ? item.text : `${heading}\n${item.text}`).slice(0, 4000)
}

export class RemoteImporter extends Effect.Service<RemoteImporter>()("twin/RemoteImporter", {
  dependencies: [Memories.Default, MemoriesRepository.Default, LearningQueue.Default],
  effect: Effect.gen(function* () {
    const memories = yield* Memories
    const learningQueue = yield* LearningQueue
    const repository = yield* MemoriesRepository

    const importPass = fnNamed("twin.importRemote")(function* (
      beingId: string,
      remote: RemoteSync,
      cursor: string | null,
      connection: RemoteConnection = { id: "", meta: {} }
    ) {
      const answered = yield* remote.pull(beingId, cursor, connection)
      const result = yield* Schema.decodeUnknown(ProviderSyncResult)(answered).pipe(
        Effect.mapError(
          (error) =>
            new Error(
              `${remote.provider} answered what does not fit ProviderSyncResult: ${ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 300)}`
            )
        )
      )
      const known = new Set(
        result.items.length === 0
          ? []
          : (yield* repository.knownSources({
              beingId,
              sources: result.items.map((item) => sourceOf(remote.provider, item))
            })).map((row) => row.source)
      )
      const counts: RemoteCounts = {
        items: result.items.length,
        remembered: 0,
        known: 0,
        cursor: result.cursor ?? "",
        note: result.note
      }
      // Oldest first, as they happened, so the newest memory is the newest item.
      for (const item of [...result.items].reverse()) {
        const source = sourceOf(remote.provider, item)
        if (known.has(source)) {
          counts.known++
          continue
        }
        known.add(source)
        yield* memories.store(
          beingId,
          { kind: "episode", content: contentOf(item), importance: 0.3, tags: [remote.provider], source },
          { skipNearDuplicates: false }
        )
        if (remote.activity === "read_email")
          yield* learningQueue.enqueue(beingId, "mail", source, `${item.title}\n${item.text}`)
        counts.remembered++
      }
      return counts
    })

    return { importPass } as const
  })
}) {}
