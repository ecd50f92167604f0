/**
 * The twin's status and settings hints: its counts, the providers of the node's registry as the
 * caller's twin sees them (configured on this server, connected by this being, the last sync;
 * chat_a configured once a bot token resolves, connected once a chat paired),
 * and the embeddings coverage. `filesRoot` is read from the files settings through the TwinFolders
 * port, the one place that knows it.
 */
import * as Effect from "effect/Effect"
import type { Caller } from "../accounts/contract/session.ts"
import { Activity } from "./activity.ts"
import type { TwinEnv, TwinStatus } from "./contract/records.ts"
import { Memories } from "./memories.ts"
import { RemoteSyncs, TwinBindings, TwinFolders } from "./ports.ts"
import { TwinSync } from "./sync.ts"
import { ChatPairings } from "./chat-bridge/pairing.ts"
import { spanNamed } from "../../kernel/spans.ts"

export class TwinStatusService extends Effect.Service<TwinStatusService>()("twin/TwinStatus", {
  dependencies: [Memories.Default, Activity.Default, TwinSync.Default, ChatPairings.Default],
  effect: Effect.gen(function* () {
    const memories = yield* Memories
    const activity = yield* Activity
    const sync = yield* TwinSync
    const bindings = yield* TwinBindings
    const folders = yield* TwinFolders
    const chat = yield* ChatPairings
    /** The env's `gmail`: the node can connect a mailbox through mail_a's consent screen. */
    const gmail = (yield* RemoteSyncs).some((remote) => remote.provider === "mail_a" && remote.configured)

    const status = (caller: Caller) =>
      Effect.gen(function* () {
        const beingId = caller.beingId
        const embeddings = yield* memories.embeddings(beingId)
        return {
          llm: { configured: bindings.cheapAvailable },
          counts: {
            memories: embeddings.total,
            files: yield* sync.files(beingId),
            activity: yield* activity.count(beingId),
            connections: yield* sync.connections(beingId)
          },
          providers: [...(yield* sync.providers(caller)), yield* chat.status(caller)],
          embeddings
        } satisfies TwinStatus
      }).pipe(spanNamed("twin.status"))

    /**
     * The owner's folder is the owner's: anyone else reads null, as for a server without one.
     * `telegram`: a chat_a bot token resolves for the caller (theirs, or the node's).
     */
    const env = (caller: Caller): Effect.Effect<TwinEnv> =>
      Effect.map(chat.status(caller), (chatA) => ({
        filesRoot: folders.rootFor(caller),
        gmail,
        telegram: chatA.configured,
        llm: bindings.cheapAvailable
      }))

    return { status, env } as const
  })
}) {}
