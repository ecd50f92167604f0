/**
 * Provider syncs of the twin: `POST /api/twin/sync/:provider` starts one in the background and
 * answers at once; its state (running, done with counts, or the error) is kept on the being's
 * connection row and shown in the status. The node's provider registry holds one provider today,
 * `files` (auth kind 'path': the owner names a folder inside FILES_ROOT). One sync per being and
 * provider runs at a time: a second while one runs is a 409 `sync_running`.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { randomUUID } from "node:crypto"
import type { Caller } from "../../host/auth/contract/session.ts"
import { Conflict, NotFound } from "../../kernel/contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import { Activity } from "./activity.ts"
import type { SyncParams, SyncState, TwinProviderStatus } from "./contract/records.ts"
import { FilesIndexer } from "./files-indexer.ts"
import { TwinFolders } from "./ports.ts"
import { ConnectionsRepository, type TwinConnection } from "./repositories/connections-repository.ts"

export const FILES_PROVIDER = "files"

/** The providers this node has (the host's registry): their ids as `sync` takes them. */
export const syncProviders = [FILES_PROVIDER] as const

const idle: SyncState = { status: "idle", startedAt: null, finishedAt: null, error: null, detail: {} }

const syncStateOf = (row: TwinConnection): SyncState => ({
  status: row.syncStatus,
  startedAt: row.syncStartedAt,
  finishedAt: row.syncFinishedAt,
  error: row.syncError,
  detail: row.syncDetail
})

const folderShown = (folder: string) => (folder === "" ? "FILES_ROOT" : folder)

export class TwinSync extends Effect.Service<TwinSync>()("twin/TwinSync", {
  dependencies: [FilesIndexer.Default, ConnectionsRepository.Default, Activity.Default],
  scoped: Effect.gen(function* () {
    const indexer = yield* FilesIndexer
    const connections = yield* ConnectionsRepository
    const activity = yield* Activity
    const folders = yield* TwinFolders
    const fibers = yield* FiberSet.make()
    /** `<beingId>/<provider>` of each sync running now. */
    const running = yield* Ref.make<ReadonlySet<string>>(new Set())

    yield* connections.abandonRunning({ at: yield* nowIso, error: "The node stopped before this sync finished; sync again." })

    const claim = (key: string) =>
      Ref.modify(running, (keys) => (keys.has(key) ? [false, keys] : [true, new Set([...keys, key])]))
    const release = (key: string) => Ref.update(running, (keys) => new Set([...keys].filter((other) => other !== key)))

    /** The pass itself, in the background: the row says how it ended, and so does one last activity. */
    const runFiles = (caller: Caller, row: TwinConnection, folder: string) =>
      indexer.index(caller, folder).pipe(
        Effect.matchCauseEffect({
          onSuccess: (counts) =>
            Effect.gen(function* () {
              yield* connections.finishSync({ id: row.id, status: "done", at: yield* nowIso, error: null, detail: { ...counts } })
              yield* activity.record(caller.beingId, "indexed_file",
                `Synced ${folderShown(folder)}: ${counts.indexed} indexed, ${counts.unchanged} unchanged, ${counts.removed} removed, ${counts.skipped} skipped`)
            }),
          onFailure: (cause) =>
            Effect.gen(function* () {
              const failure = failureMessage(cause)
              const error = failure ?? "The sync failed on the node's side; see its log."
              if (failure === undefined) yield* Effect.logError("A files sync failed", cause)
              yield* connections.finishSync({ id: row.id, status: "error", at: yield* nowIso, error, detail: {} })
              yield* activity.record(caller.beingId, "indexed_file", `Could not sync ${folderShown(folder)}: ${error}`)
            })
        })
      )

    const start = Effect.fn("twin.startSync")(function* (caller: Caller, provider: string, params: SyncParams) {
      if (provider !== FILES_PROVIDER) {
        return yield* new NotFound({
          error: "unknown_provider",
          message: `This node has no provider "${provider}" to sync.`,
          details: { provider, providers: syncProviders }
        })
      }
      const key = `${caller.beingId}/${provider}`
      if (!(yield* claim(key))) {
        return yield* new Conflict({ error: "sync_running", message: "A sync of your files is already running; wait for it to finish." })
      }
      const started = Effect.gen(function* () {
        const existing = Option.getOrNull(yield* connections.find({ beingId: caller.beingId, provider }))
        const named = params.path ?? existing?.meta["path"]
        const folder = yield* folders.check(caller, typeof named === "string" ? named : "")
        const at = yield* nowIso
        const row: TwinConnection = {
          id: existing?.id ?? randomUUID(),
          beingId: caller.beingId,
          provider,
          label: folderShown(folder),
          status: "connected",
          meta: { path: folder },
          lastSyncAt: existing?.lastSyncAt ?? null,
          createdAt: existing?.createdAt ?? at,
          syncStatus: "running",
          syncStartedAt: at,
          syncFinishedAt: null,
          syncError: null,
          syncDetail: {}
        }
        yield* connections.startSync(row)
        yield* FiberSet.run(fibers, Effect.ensuring(runFiles(caller, row, folder), release(key)))
        return { started: true } as const
      })
      return yield* Effect.onError(started, () => release(key))
    })

    /** Each provider of the registry as the caller's twin sees it. */
    const providers = (caller: Caller) =>
      Effect.map(connections.find({ beingId: caller.beingId, provider: FILES_PROVIDER }), (found): ReadonlyArray<TwinProviderStatus> => {
        const row = Option.getOrNull(found)
        const configured = folders.rootFor(caller) !== null
        const hint = !configured
          ? caller.isOwner
            ? "Set FILES_ROOT to a folder on this machine, then sync it."
            : "The files provider indexes the node owner's folder; only the owner's twin can sync it."
          : row === null
          ? "Sync to index the text files of FILES_ROOT, or name a folder inside it."
          : row.syncStatus === "error"
          ? "The last sync did not finish; sync again."
          : null
        return [{
          provider: FILES_PROVIDER,
          title: "Local files",
          icon: "📁",
          origin: "builtin",
          syncable: true,
          configured,
          connected: row?.status === "connected",
          connectionId: row?.id ?? null,
          label: row?.label ?? "",
          meta: row?.meta ?? {},
          lastSyncAt: row?.lastSyncAt ?? null,
          sync: row === null ? idle : syncStateOf(row),
          hint
        }]
      })

    return { start, providers, connections: connections.count, files: indexer.count } as const
  })
}) {}

/** The words of an expected failure (an ApiError of the folder check); undefined for a defect. */
const failureMessage = (cause: Cause.Cause<unknown>): string | undefined => {
  const failure = Option.getOrUndefined(Cause.failureOption(cause))
  return typeof failure === "object" && failure !== null && "message" in failure && typeof failure.message === "string" ? failure.message : undefined
}
