/**
 * What the twin needs from features it does not own, as ports the host binds
 * (extensions/twin/feature.ts): how the model tiers it uses are bound, read from the models' settings
 * without calling a model, so the status and the search can say plainly what they do.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { Caller } from "../accounts/contract/session.ts"
import type {
  FileNotFound,
  FileRootRefusal,
  FileTooLarge,
  InvalidPath,
  NotAFile,
  NotAFolder
} from "../files/contract/errors.ts"
import type { FilesNotConfigured } from "./contract/errors.ts"

export interface TwinBindingsShape {
  readonly embed: {
    /** A binding is usable: a local server, or a remote provider with a key. */
    readonly available: boolean
    /** The bound model: vectors of another model are never compared with its own. */
    readonly model: string
    /** Text sent to be embedded may leave the host (a remote tier, or a local one allowed to fall back). */
    readonly leavesDevice: boolean
  }
  /** The cheap chat tier (learning, reflection) is usable. */
  readonly cheapAvailable: boolean
}

export class TwinBindings extends Context.Tag("twin/TwinBindings")<TwinBindings, TwinBindingsShape>() {}

/**
 * Where reflection's insights land: the being's desktop, through the one path every raise takes
 * (and so through the hush gate, as a proactive signal). Answers the signal's id and whether it
 * was delivered now; a refusal is answered, not failed, since one lost insight stops nothing.
 */
export interface InsightSignalsShape {
  readonly raise: (
    beingId: string,
    insight: { readonly title: string; readonly body: string },
    /** The memories the insight was drawn from: its evidence, read back by "why was I nudged". */
    memoryIds: ReadonlyArray<string>
  ) => Effect.Effect<{ readonly signalId: string; readonly delivered: boolean } | { readonly refused: string }>
}

export class InsightSignals extends Context.Tag("twin/InsightSignals")<InsightSignals, InsightSignalsShape>() {}

/** A text file the files provider may index, by its path inside the owner's folder. */
export interface FolderFile {
  readonly path: string
  readonly size: number
  /** ISO 8601 */
  readonly mtime: string
}

/**
 * The owner's folder (FILES_ROOT) as the files provider reads it, bound by the host over the
 * files feature's confinement: regular files inside the root only, no link followed out of it.
 * `folder` is relative to the root; a refusal (not the owner's, not configured, no such folder,
 * a path leaving the root) fails with the error the caller should see.
 */
/** Why a folder or file of the owner's FILES_ROOT was not reached: as the files feature refuses, or no FILES_ROOT. */
export type TwinFolderRefusal =
  | FilesNotConfigured
  | FileRootRefusal
  | FileNotFound
  | InvalidPath
  | NotAFile
  | NotAFolder
  | FileTooLarge

export interface TwinFoldersShape {
  /** The absolute folder for the caller's twin, when FILES_ROOT is set and the caller owns the node. */
  readonly rootFor: (caller: Caller) => string | null
  /** The folder in its normal relative form, checked to exist and be a folder inside the root. */
  readonly check: (caller: Caller, folder: string) => Effect.Effect<string, TwinFolderRefusal>
  /** The text files under the folder (recursively, hidden ones and build noise left out), at most `most`. */
  readonly textFiles: (
    caller: Caller,
    folder: string,
    most: number
  ) => Effect.Effect<ReadonlyArray<FolderFile>, TwinFolderRefusal>
  /**
   * One regular file's bytes (a History database, say), refused as the folder checks refuse, or when over `maxBytes`.
   */
  readonly readFile: (caller: Caller, path: string, maxBytes: number) => Effect.Effect<Uint8Array, TwinFolderRefusal>
  /**
   * One file's text when it is still a regular UTF-8 file without NUL of at most `maxBytes`, or a PDF's markdown; null
   * otherwise.
   */
  readonly readText: (caller: Caller, path: string, maxBytes: number) => Effect.Effect<string | null>
}

export class TwinFolders extends Context.Tag("twin/TwinFolders")<TwinFolders, TwinFoldersShape>() {}

/**
 * The node's own values that outlive a restart (the host's `node_meta`): `keep` stores `value`
 * under `key` unless one is there and answers the one kept. The secret box keeps the node's salt here.
 */
export class NodeValues extends Context.Tag("twin/NodeValues")<
  NodeValues,
  {
    readonly keep: (key: string, value: string) => Effect.Effect<string>
  }
>() {}

export { RemoteSyncs, type RemoteConnection, type RemoteSync } from "./contract/remote-syncs.ts"

/** One connection's secret, by being and provider: what changed, never the secret itself. */
export interface SecretChange {
  readonly beingId: string
  readonly provider: string
}

/**
 * The other processes sharing the node's database (host/broadcast, bound on PostgreSQL only):
 * each keeps its own copy of the sealed secrets (connection-credentials.ts), so a write here is
 * announced and another's write reloaded. `send` runs on the writer's fiber, so an announcement
 * made inside a transaction arrives at its commit, when the row can be read. `heard` answers
 * null when this process was deaf for a while and every copy must be reloaded.
 */
export class SecretChangeRelay extends Context.Tag("twin/SecretChangeRelay")<
  SecretChangeRelay,
  {
    readonly send: (change: SecretChange) => Effect.Effect<void>
    readonly heard: Effect.Effect<Queue.Dequeue<SecretChange | null>, never, Scope.Scope>
  }
>() {}
