/**
 * The restore from the register page (docs/decisions.md "Restore from the register page"): while the node has no
 * owner, a backup uploaded with its passphrase is streamed to a file under DATA_DIR, decrypted and checked into a
 * staging folder while the node keeps serving; only then is the relaunch asked for (kernel/relaunch.ts). The node
 * answers 202, stops, places the staged backup (its fresh data folder moved aside, never deleted) and starts again
 * on it. Any refusal changes nothing and leaves no upload behind.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Multipart from "@effect/platform/Multipart"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Stream from "effect/Stream"
import { randomUUID } from "node:crypto"
import { mkdir, open, readdir, rm } from "node:fs/promises"
import { join, resolve } from "node:path"
import { readEncryptionKeyFile } from "../../kernel/encryption-key.ts"
import { filesDirOf } from "../../kernel/file-stores.ts"
import { NodeRelaunch } from "../../kernel/relaunch.ts"
import { Settings } from "../../kernel/settings.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { UnreadableBackup } from "./archive-read.ts"
import {
  DamagedBackup,
  MalformedRestore,
  NewerBackupFormat,
  NoRestoreFile,
  NotABackup,
  OwnerExists,
  RelaunchUnavailable,
  RestoreRunning,
  RestoreTooLarge,
  UsePgDump,
  WrongPassphrase
} from "./contract/errors.ts"
import type { RestoreAvailability, RestoreStarted } from "./contract/records.ts"
import { placeStagedBackup, type RestoreTargets, stageBackup, type StagedBackup } from "./restore.ts"
import { BackupsSettings } from "./settings.ts"
import { fnNamed } from "../../kernel/spans.ts"

const UPLOAD_PREFIX = "restore-upload-"

type Refusal = UsePgDump | OwnerExists | RelaunchUnavailable | RestoreRunning

/** Fields are short (a passphrase): a longer one is a malformed body. */
const MAX_FIELD_BYTES = 16 * 1024

/**
 * Streams a file part's bytes through `count` to `path` (created, never replacing; null: dropped), chunk by chunk:
 * memory stays flat. The bytes are counted here rather than by the multipart parser's own total, whose error never
 * reaches a part's content stream being read (the read would wait forever).
 */
const consumePart = <E>(file: Multipart.File, path: string | null, count: (bytes: number) => Effect.Effect<void, E>) =>
  path === null
    ? Stream.runForEach(file.content, (chunk) => count(chunk.length))
    : Effect.acquireUseRelease(
        Effect.promise(() => open(path, "wx")),
        (handle) =>
          Stream.runForEach(file.content, (chunk) =>
            Effect.zipRight(
              count(chunk.length),
              Effect.promise(() => handle.write(chunk))
            )
          ),
        (handle) => Effect.promise(() => handle.close())
      )

export class SetupRestore extends Effect.Service<SetupRestore>()("backups/SetupRestore", {
  effect: Effect.gen(function* () {
    const settings = yield* Settings
    const { maxRestoreBytes, encryptionKey } = yield* BackupsSettings
    const beings = yield* BeingRegistry
    const relaunch = yield* Effect.serviceOption(NodeRelaunch)
    const running = yield* Ref.make(false)
    const dataDir = resolve(settings.dataDir)
    const targets: RestoreTargets = { dataDir, filesDir: filesDirOf(settings), pluginDir: settings.pluginDir }
    // An upload a stopped process left behind was never restored: nobody's file (this process alone uses DATA_DIR).
    yield* Effect.promise(async () => {
      for (const name of await readdir(dataDir).catch((): Array<string> => []))
        if (name.startsWith(UPLOAD_PREFIX)) await rm(join(dataDir, name), { force: true })
    })

    /** Why a restore would be refused now, if it would. */
    const refusal: Effect.Effect<Option.Option<Refusal>> = Effect.gen(function* () {
      if (Option.isSome(settings.databaseUrl))
        return Option.some<Refusal>(
          new UsePgDump({
            message:
              "This node keeps its database on PostgreSQL: restore it with pg_restore and copy FILES_DIR and " +
              'PLUGIN_DIR back (docs/operations.md "Backups").'
          })
        )
      if (Option.isSome(yield* beings.findOwner))
        return Option.some<Refusal>(
          new OwnerExists({ message: "This node has an owner already: a restore would replace their data." })
        )
      if (Option.isNone(relaunch))
        return Option.some<Refusal>(
          new RelaunchUnavailable({
            message: "This node cannot restart itself: stop it and run `npm run restore -- <file>` instead."
          })
        )
      if (yield* Ref.get(running))
        return Option.some<Refusal>(new RestoreRunning({ message: "A restore is under way already." }))
      return Option.none()
    })

    const availability = fnNamed("setupRestore.availability")(function* () {
      const refused = yield* refusal
      const answer: RestoreAvailability = {
        available: Option.isNone(refused),
        reason: Option.match(refused, { onNone: () => null, onSome: (error) => error.error }),
        maxBytes: maxRestoreBytes
      }
      return answer
    })

    /** Reads the body: the first file part to `upload`, the `passphrase` field. */
    const receive = (request: HttpServerRequest.HttpServerRequest, upload: string) =>
      Effect.gen(function* () {
        let passphrase: string | null = null
        let received = false
        let bytes = 0
        const tooLarge = new RestoreTooLarge({
          message: `The backup is larger than this node takes (MAX_RESTORE_BYTES, ${maxRestoreBytes} bytes).`,
          details: { limitBytes: maxRestoreBytes }
        })
        const count = (more: number) => {
          bytes += more
          return bytes > maxRestoreBytes ? Effect.fail(tooLarge) : Effect.void
        }
        yield* request.multipartStream.pipe(
          Stream.mapError((error) =>
            error.reason === "BodyTooLarge" || error.reason === "FileTooLarge"
              ? tooLarge
              : new MalformedRestore({ message: "The multipart body could not be read." })
          ),
          Stream.runForEach((part) => {
            if (part._tag === "Field") {
              if (part.key === "passphrase") passphrase = part.value
              return Effect.void
            }
            const file = part as Multipart.File
            const path = received ? null : upload
            received = true
            return consumePart(file, path, count).pipe(
              Effect.mapError((error) =>
                error._tag === "MultipartError" ? new MalformedRestore({ message: "The backup was cut off." }) : error
              )
            )
          }),
          Multipart.withMaxFieldSize(MAX_FIELD_BYTES)
        )
        if (!received) return yield* new NoRestoreFile({ message: "Choose the backup file to restore." })
        if (passphrase === null || passphrase === "")
          return yield* new MalformedRestore({ message: "Give the backup's passphrase." })
        return passphrase as string
      })

    /** Decrypts and checks the upload into its staging folder; a backup that does not open is a 400 naming why. */
    const stage = (upload: string, passphrase: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.tryPromise({
          try: () => stageBackup(upload, passphrase, targets, new Date(now)),
          catch: (error) => {
            if (!(error instanceof UnreadableBackup))
              return new DamagedBackup({ message: `The backup could not be read: ${String(error).slice(0, 200)}` })
            const refusalOf = {
              wrong_passphrase: WrongPassphrase,
              not_a_backup: NotABackup,
              newer_backup_format: NewerBackupFormat,
              damaged_backup: DamagedBackup
            }[error.reason]
            return new refusalOf({ message: error.message })
          }
        })
      )

    /** What runs while the node is stopped: the staged backup placed, or the old folders back. */
    const placeStep = (staged: StagedBackup) =>
      Effect.tryPromise({
        try: () => placeStagedBackup(staged, targets),
        catch: (error) =>
          new Error(
            `The restore from the register page failed; the node starts again on its data as it was: ${String(error)}`
          )
      }).pipe(
        Effect.map(({ movedAside, restoredKey, undo }) => {
          const moved = movedAside.map((line) => ` Moved aside: ${line}.`).join("")
          // As `npm run restore` warns: an environment key wins over the restored one, and would not open its secrets.
          const keyDiffers =
            restoredKey &&
            Option.isSome(encryptionKey) &&
            Redacted.value(encryptionKey.value) !== readEncryptionKeyFile(dataDir)
          const warning = keyDiffers
            ? " ENCRYPTION_KEY in the environment is not the one the backup carried: unset it (the node then reads " +
              "DATA_DIR/keys/ENCRYPTION_KEY) and restart, or the restored connection secrets will not open."
            : ""
          return {
            line: `Restored the backup of ${staged.createdAt}.${moved}${warning}`,
            undo: Effect.tryPromise({
              try: undo,
              catch: (error) => new Error(`The restore could not be taken back: ${String(error)}`)
            }).pipe(
              Effect.as(
                "The restored node did not start: the restore was taken back (its folders renamed " +
                  "<folder>.failed-restore-<time>), and the node starts again on its data as it was."
              )
            )
          }
        })
      )

    /**
     * Takes the restore: checked and staged, then answered 202; `afterAnswer` is called with the relaunch to run once
     * the answer has been sent.
     */
    const restore = fnNamed("setupRestore.restore")(function* (
      request: HttpServerRequest.HttpServerRequest,
      afterAnswer: (relaunchNow: Effect.Effect<unknown>) => Effect.Effect<void>
    ) {
      const refused = yield* refusal
      if (Option.isSome(refused)) return yield* refused.value
      // Taken in one step: of two restores that both passed the checks above, one goes on.
      if (yield* Ref.getAndSet(running, true))
        return yield* new RestoreRunning({ message: "A restore is under way already." })
      const upload = join(dataDir, `${UPLOAD_PREFIX}${randomUUID()}.tar.gz.age`)
      const staged = yield* Effect.promise(() => mkdir(dataDir, { recursive: true })).pipe(
        Effect.zipRight(receive(request, upload)),
        Effect.flatMap((passphrase) => stage(upload, passphrase)),
        Effect.ensuring(Effect.promise(() => rm(upload, { force: true }))),
        Effect.onError(() => Ref.set(running, false))
      )
      // Someone may have registered as owner while the backup was read: their node stays as it is.
      if (Option.isSome(yield* beings.findOwner)) {
        yield* Effect.promise(() => rm(staged.staging, { recursive: true, force: true }))
        yield* Ref.set(running, false)
        return yield* new OwnerExists({ message: "Someone registered as this node's owner meanwhile." })
      }
      if (Option.isSome(relaunch)) yield* afterAnswer(relaunch.value.relaunch(placeStep(staged)))
      const answer: RestoreStarted = {
        restarting: true,
        createdAt: staged.createdAt,
        ownerHandle: staged.ownerHandle,
        counts: staged.counts
      }
      return answer
    })

    return { availability, restore } as const
  })
}) {}
