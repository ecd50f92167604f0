/**
 * Provider syncs of the twin: `POST /api/twin/sync/:provider` starts one in the background and
 * answers at once; its state (running, done with counts, or the error) is kept on the being's
 * connection row and shown in the status. The providers that sync: `files` (auth kind 'path': the
 * owner names a folder inside FILES_ROOT), `browser` (a Chromium History file inside it,
 * browser-history.ts), and each remote one the host binds (RemoteSyncs: mail_a's mailbox), read
 * through the being's own connection and remembered by remote-import.ts. One sync per being and
 * provider runs at a time: a second while one runs is a 409 `sync_running`. Across the processes of
 * a cluster the connection's row is the claim (who runs the sync, and a lease it renews while it
 * runs): a process that stops leaves a lease that lapses, and the sync reads as stopped then.
 */
import * as Cause from "effect/Cause"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import { randomUUID } from "node:crypto"
import type { Caller } from "../accounts/contract/session.ts"
import { NoHistoryPath, NotConnected, ProviderNotConfigured, SyncRunning, UnknownProvider } from "./contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import { Activity } from "./activity.ts"
import { BROWSER_PROVIDER, BrowserImporter } from "./browser-history.ts"
import type { SyncParams, SyncState, TwinActivityKind, TwinProviderStatus } from "./contract/records.ts"
import { FilesIndexer } from "./files-indexer.ts"
import { PluginSyncs } from "./plugin-syncs.ts"
import { RemoteSyncs, TwinFolders, type RemoteSync } from "./ports.ts"
import { RemoteImporter } from "./remote-import.ts"
import { ConnectionsRepository, type TwinConnection } from "./repositories/connections-repository.ts"
import { fnNamed } from "../../kernel/spans.ts"

export const FILES_PROVIDER = "files"

/** The providers that sync from the owner's folder: their ids as `sync` takes them. */
export const syncProviders = [FILES_PROVIDER, BROWSER_PROVIDER] as const

const idle: SyncState = { status: "idle", startedAt: null, finishedAt: null, error: null, detail: {} }

/** How long a running sync's claim holds without its process renewing it, and how often it is renewed. */
export const SYNC_LEASE_MS = 30_000
const SYNC_HOLD_EVERY = Duration.seconds(10)

const stoppedBefore = "The node stopped before this sync finished; sync again."

/** A running sync whose lease lapsed is one its process stopped in the middle of, as the next start will record. */
const syncStateOf = (row: TwinConnection, now: string): SyncState =>
  row.syncStatus === "running" && row.syncLeaseUntil !== null && row.syncLeaseUntil < now
    ? {
        status: "error",
        startedAt: row.syncStartedAt,
        finishedAt: row.syncLeaseUntil,
        error: stoppedBefore,
        detail: row.syncDetail
      }
    : {
        status: row.syncStatus,
        startedAt: row.syncStartedAt,
        finishedAt: row.syncFinishedAt,
        error: row.syncError,
        detail: row.syncDetail
      }

const isoAfter = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString()

/** How the status names each provider that syncs, and what it tells a being to do first. */
const syncing = [
  {
    provider: FILES_PROVIDER,
    title: "Local files",
    icon: "📁",
    first: "sync it.",
    start: "Sync to index the text files of FILES_ROOT, or name a folder inside it."
  },
  {
    provider: BROWSER_PROVIDER,
    title: "Browser",
    icon: "🌐",
    first: "copy a Chromium profile's History file into it.",
    start: "Copy a Chromium profile's History file inside FILES_ROOT, then sync with its path."
  }
] as const

const folderShown = (folder: string) => (folder === "" ? "FILES_ROOT" : folder)

export class TwinSync extends Effect.Service<TwinSync>()("twin/TwinSync", {
  dependencies: [
    FilesIndexer.Default,
    BrowserImporter.Default,
    RemoteImporter.Default,
    ConnectionsRepository.Default,
    Activity.Default
  ],
  scoped: Effect.gen(function* () {
    const indexer = yield* FilesIndexer
    const browser = yield* BrowserImporter
    const connections = yield* ConnectionsRepository
    const activity = yield* Activity
    const folders = yield* TwinFolders
    const remoteImporter = yield* RemoteImporter
    const builtinRemotes = yield* RemoteSyncs
    const plugins = yield* PluginSyncs
    /** The built-in remote providers and every plugin's that syncs, read at each call (an install shows at once). */
    const remotesNow = Effect.map(plugins.list, (fromPlugins) => [...builtinRemotes, ...fromPlugins])
    const remoteOf = (provider: string) =>
      Effect.map(remotesNow, (remotes) => remotes.find((remote) => remote.provider === provider))
    const fibers = yield* FiberSet.make()
    /** `<beingId>/<provider>` of each sync running now in this process. */
    const running = yield* Ref.make<ReadonlySet<string>>(new Set())
    /** This process's name on the syncs it claims: new at each start, so a restarted process is another claimer. */
    const me = randomUUID()

    yield* connections.abandonRunning({ at: yield* nowIso, error: stoppedBefore })

    const claim = (key: string) =>
      Ref.modify(running, (keys) => (keys.has(key) ? [false, keys] : [true, new Set([...keys, key])]))
    const release = (key: string) => Ref.update(running, (keys) => new Set([...keys].filter((other) => other !== key)))

    /**
     * A pass in the background: the row says how it ended, and so does one last activity. A failed
     * pass keeps `kept` in its detail (the browser's cursor), so the next one starts where this did.
     */
    const runPass = <A extends Record<string, string | number>>(
      caller: Caller,
      row: TwinConnection,
      pass: Effect.Effect<A, unknown>,
      report: {
        readonly kind: TwinActivityKind
        readonly done: (detail: A) => string
        readonly failed: (error: string) => string
        readonly kept: Record<string, string>
      }
    ) =>
      pass.pipe(
        Effect.matchCauseEffect({
          onSuccess: (detail) =>
            Effect.gen(function* () {
              yield* connections.finishSync({
                id: row.id,
                claimer: me,
                status: "done",
                at: yield* nowIso,
                error: null,
                detail: { ...detail }
              })
              yield* activity.record(caller.beingId, report.kind, report.done(detail))
            }),
          onFailure: (cause) =>
            Effect.gen(function* () {
              const failure = failureMessage(cause)
              const error = failure ?? "The sync failed on the node's side; see its log."
              if (failure === undefined) yield* Effect.logError(`A ${row.provider} sync failed`, cause)
              yield* connections.finishSync({
                id: row.id,
                claimer: me,
                status: "error",
                at: yield* nowIso,
                error,
                detail: report.kept
              })
              yield* activity.record(caller.beingId, report.kind, report.failed(error))
            })
        })
      )

    const runFiles = (caller: Caller, row: TwinConnection, folder: string) =>
      runPass(caller, row, indexer.index(caller, folder), {
        kind: "indexed_file",
        done: (counts) =>
          `Synced ${folderShown(folder)}: ${counts.indexed} indexed, ${counts.unchanged} unchanged, ${counts.removed} removed, ${counts.skipped} skipped`,
        failed: (error) => `Could not sync ${folderShown(folder)}: ${error}`,
        kept: {}
      })

    const runBrowser = (caller: Caller, row: TwinConnection, path: string, cursor: string) =>
      runPass(caller, row, browser.importHistory(caller, path, cursor), {
        kind: "browsed",
        done: (counts) => `Imported ${counts.remembered} ${counts.remembered === 1 ? "page" : "pages"} from ${path}`,
        failed: (error) => `Could not import ${path}: ${error}`,
        kept: { cursor }
      })

    const runRemote = (caller: Caller, row: TwinConnection, remote: RemoteSync, cursor: string | null) =>
      runPass(caller, row, remoteImporter.importPass(caller.beingId, remote, cursor, { id: row.id, meta: row.meta }), {
        kind: remote.activity,
        done: (counts) =>
          `Synced ${remote.title}: ${counts.remembered} new, ${counts.known} already remembered${counts.note === "" ? "" : ` (${counts.note})`}`,
        failed: (error) => `Could not sync ${remote.title}: ${error}`,
        kept: cursor === null ? {} : { cursor }
      })

    /** A remote provider syncs the being's own connection: it must be configured here and connected by the being. */
    const prepareRemote = (caller: Caller, remote: RemoteSync, existing: TwinConnection | null) =>
      Effect.gen(function* () {
        if (!remote.configured) return yield* new ProviderNotConfigured({ message: remote.unconfigured })
        if (existing === null || existing.status !== "connected")
          return yield* new NotConnected({ message: remote.connect })
        const kept = existing.syncDetail.cursor
        const cursor = typeof kept === "string" && kept !== "" ? kept : null
        return {
          label: existing.label,
          meta: existing.meta,
          kept: cursor === null ? {} : { cursor },
          pass: (row: TwinConnection) => runRemote(caller, row, remote, cursor)
        }
      })

    /** What a sync of the provider needs, checked before it starts: the path, its label, what the pass runs. */
    const prepare = (caller: Caller, provider: string, params: SyncParams, existing: TwinConnection | null) =>
      Effect.gen(function* () {
        const remote = yield* remoteOf(provider)
        if (remote !== undefined) return yield* prepareRemote(caller, remote, existing)
        const named = params.path ?? existing?.meta.path
        if (provider === FILES_PROVIDER) {
          const folder = yield* folders.check(caller, typeof named === "string" ? named : "")
          return {
            label: folderShown(folder),
            meta: { path: folder },
            kept: {},
            pass: (row: TwinConnection) => runFiles(caller, row, folder)
          }
        }
        if (typeof named !== "string" || named === "") {
          return yield* new NoHistoryPath({
            message:
              "Name the History file to import: ?path=<file inside FILES_ROOT>, or connect the browser provider with it."
          })
        }
        yield* browser.check(caller, named)
        const kept = existing?.syncDetail.cursor
        const cursor = typeof kept === "string" && /^\d+$/.test(kept) ? kept : "0"
        return {
          label: named,
          meta: { path: named },
          kept: { cursor },
          pass: (row: TwinConnection) => runBrowser(caller, row, named, cursor)
        }
      })

    const runningConflict = (provider: string) =>
      new SyncRunning({
        message: `A sync of your ${provider === FILES_PROVIDER ? "files" : provider} is already running; wait for it to finish.`
      })

    const start = fnNamed("twin.startSync")(function* (caller: Caller, provider: string, params: SyncParams) {
      if (provider !== FILES_PROVIDER && provider !== BROWSER_PROVIDER && (yield* remoteOf(provider)) === undefined) {
        return yield* new UnknownProvider({
          message: `This node has no provider "${provider}" to sync.`,
          details: { provider, providers: [...syncProviders, ...(yield* remotesNow).map((remote) => remote.provider)] }
        })
      }
      const key = `${caller.beingId}/${provider}`
      if (!(yield* claim(key))) return yield* runningConflict(provider)
      const started = Effect.gen(function* () {
        const existing = Option.getOrNull(yield* connections.find({ beingId: caller.beingId, provider }))
        const prepared = yield* prepare(caller, provider, params, existing)
        const at = yield* nowIso
        const row: TwinConnection = {
          id: existing?.id ?? randomUUID(),
          beingId: caller.beingId,
          provider,
          label: prepared.label,
          status: "connected",
          meta: prepared.meta,
          lastSyncAt: existing?.lastSyncAt ?? null,
          createdAt: existing?.createdAt ?? at,
          syncStatus: "running",
          syncStartedAt: at,
          syncFinishedAt: null,
          syncError: null,
          // What a pass that stops here must not lose (the browser's cursor).
          syncDetail: prepared.kept,
          syncClaimer: me,
          syncLeaseUntil: isoAfter(at, SYNC_LEASE_MS)
        }
        // The claim across processes: another process's sync of this connection, under a lease that holds, refuses this
        // one.
        if (Option.isNone(yield* connections.startSync(row))) return yield* runningConflict(provider)
        const hold = Effect.flatMap(nowIso, (now) =>
          connections.holdSync({ id: row.id, claimer: me, until: isoAfter(now, SYNC_LEASE_MS) })
        ).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("A running sync's lease was not renewed", cause)),
          Effect.repeat(Schedule.spaced(SYNC_HOLD_EVERY)),
          Effect.delay(SYNC_HOLD_EVERY)
        )
        const pass = Effect.scoped(Effect.zipRight(Effect.forkScoped(hold), prepared.pass(row)))
        yield* FiberSet.run(fibers, Effect.ensuring(pass, release(key)))
        return { started: true } as const
      })
      return yield* Effect.onError(started, () => release(key))
    })

    const statusOf = (
      now: string,
      row: TwinConnection | null,
      provider: {
        readonly provider: string
        readonly title: string
        readonly icon: string
        readonly origin?: "builtin" | "plugin"
      },
      configured: boolean,
      hint: string | null
    ): TwinProviderStatus => ({
      provider: provider.provider,
      title: provider.title,
      icon: provider.icon,
      origin: provider.origin ?? "builtin",
      syncable: true,
      configured,
      connected: row?.status === "connected",
      connectionId: row?.id ?? null,
      label: row?.label ?? "",
      meta: row?.meta ?? {},
      lastSyncAt: row?.lastSyncAt ?? null,
      sync: row === null ? idle : syncStateOf(row, now),
      hint:
        hint ??
        (row !== null && syncStateOf(row, now).status === "error" ? "The last sync did not finish; sync again." : null)
    })

    const rowOf = (caller: Caller, provider: string) =>
      Effect.map(connections.find({ beingId: caller.beingId, provider }), Option.getOrNull)

    /**
     * The providers that sync as the caller's twin sees them: two read the owner's FILES_ROOT, the remote ones the
     * being's own connection.
     */
    const providers = (caller: Caller) =>
      Effect.gen(function* () {
        const now = yield* nowIso
        const local = yield* Effect.forEach(syncing, (provider) =>
          Effect.map(rowOf(caller, provider.provider), (row) => {
            const configured = folders.rootFor(caller) !== null
            const hint = !configured
              ? caller.isOwner
                ? `Set FILES_ROOT to a folder on this machine, then ${provider.first}`
                : `The ${provider.provider} provider reads the node owner's folder; only the owner's twin can sync it.`
              : row === null
                ? provider.start
                : null
            return statusOf(now, row, provider, configured, hint)
          })
        )
        const remote = yield* Effect.forEach(yield* remotesNow, (provider) =>
          Effect.map(rowOf(caller, provider.provider), (row) => {
            const hint = !provider.configured
              ? provider.unconfigured
              : row === null || row.status !== "connected"
                ? provider.connect
                : // A remote pass's error says what to do (connect again when the grant was revoked).
                  syncStateOf(row, now).error !== null
                  ? `The last sync failed: ${syncStateOf(row, now).error}`
                  : row.lastSyncAt === null && row.syncStatus === "idle"
                    ? provider.origin === "plugin"
                      ? `Connected: sync to remember what ${provider.title} holds.`
                      : "Connected: sync to remember your recent mail."
                    : null
            return statusOf(now, row, provider, provider.configured, hint)
          })
        )
        return [...remote, ...local]
      })

    return { start, providers, connections: connections.count, files: indexer.count } as const
  })
}) {}

/** The words of an expected failure (an ApiError of the folder check); undefined for a defect. */
const failureMessage = (cause: Cause.Cause<unknown>): string | undefined => {
  const failure = Option.getOrUndefined(Cause.failureOption(cause))
  return typeof failure === "object" && failure !== null && "message" in failure && typeof failure.message === "string"
    ? failure.message
    : undefined
}
