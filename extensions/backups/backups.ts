/**
 * The backups service: one backup written at a time (a second ask while one is written is 409 `backup_running`),
 * listed from the summaries beside the files, verified, deleted, opened for download. On PostgreSQL every operation
 * refuses with 409 `use_pg_dump`: the database is not a file this node can snapshot.
 */
import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { open, readdir, readFile, rm } from "node:fs/promises"
import { join, resolve } from "node:path"
import { readEncryptionKeyFile } from "../../kernel/encryption-key.ts"
import { filesDirOf } from "../../kernel/file-stores.ts"
import { Settings } from "../../kernel/settings.ts"
import { hostVersion } from "../../kernel/version.ts"
import { BackupNotFound, BackupRunning, UsePgDump, WeakPassphrase } from "./contract/errors.ts"
import { Backup, type BackupSchedule, MIN_PASSPHRASE_LENGTH } from "./contract/records.ts"
import { ARCHIVE_SUFFIX, writeBackup } from "./archive-write.ts"
import { backupDirOf, BackupsSettings } from "./settings.ts"
import { verifyBackup } from "./verify.ts"
import { fnNamed } from "../../kernel/spans.ts"

const decodeSummary = Schema.decodeUnknownOption(Schema.parseJson(Backup))

export class Backups extends Effect.Service<Backups>()("backups/Backups", {
  effect: Effect.gen(function* () {
    const settings = yield* Settings
    const backupSettings = yield* BackupsSettings
    const backupDir = backupDirOf(backupSettings, settings.dataDir)
    const onPostgres = Option.isSome(settings.databaseUrl)
    const writing = yield* Effect.makeSemaphore(1)
    const lastRun = yield* Ref.make<{ at: string | null; error: string | null }>({ at: null, error: null })

    const sqliteOnly = onPostgres
      ? Effect.fail(
          new UsePgDump({
            message:
              "This node keeps its database on PostgreSQL: back it up with pg_dump and copy FILES_DIR and PLUGIN_DIR " +
              '(docs/operations.md "Backups").'
          })
        )
      : Effect.void

    const archiveOf = (id: string) => join(backupDir, `${id}${ARCHIVE_SUFFIX}`)

    const list = fnNamed("backups.list")(function* () {
      yield* sqliteOnly
      const names = yield* Effect.promise(() => readdir(backupDir).catch((): Array<string> => []))
      const archives = new Set(names.filter((name) => name.endsWith(ARCHIVE_SUFFIX)))
      const summaries = yield* Effect.forEach(
        names.filter((name) => name.endsWith(".json") && archives.has(name.replace(/\.json$/, ARCHIVE_SUFFIX))),
        (name) =>
          Effect.promise(() =>
            readFile(join(backupDir, name), "utf8").then(decodeSummary, () => Option.none<Backup>())
          ),
        { concurrency: 8 }
      )
      return Arr.getSomes(summaries).sort((a, b) =>
        a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id.localeCompare(a.id)
      )
    })

    const find = fnNamed("backups.find")(function* (id: string) {
      const found = (yield* list()).find((backup) => backup.id === id)
      if (found === undefined) return yield* new BackupNotFound({ message: "There is no backup with this id." })
      return found
    })

    const checkPassphrase = (passphrase: string) =>
      passphrase.length >= MIN_PASSPHRASE_LENGTH
        ? Effect.void
        : Effect.fail(
            new WeakPassphrase({
              message: `A backup passphrase has at least ${MIN_PASSPHRASE_LENGTH} characters: it protects everything in the backup.`,
              details: { minLength: MIN_PASSPHRASE_LENGTH }
            })
          )

    /** Writes a backup now; refused while another is written. */
    const create = fnNamed("backups.create")(function* (passphrase: string, scheduled = false) {
      yield* sqliteOnly
      yield* checkPassphrase(passphrase)
      const now = new Date(yield* Clock.currentTimeMillis)
      const encryptionKey = Option.getOrElse(Option.map(backupSettings.encryptionKey, Redacted.value), () =>
        readEncryptionKeyFile(settings.dataDir)
      )
      const write = Effect.promise(() =>
        writeBackup(
          {
            databaseFile: join(settings.dataDir, "node.db"),
            filesDir: filesDirOf(settings),
            pluginDir: resolve(settings.pluginDir),
            encryptionKey,
            nodeVersion: hostVersion
          },
          backupDir,
          passphrase,
          now,
          scheduled
        )
      )
      const written = yield* writing.withPermitsIfAvailable(1)(write)
      if (Option.isNone(written))
        return yield* new BackupRunning({ message: "A backup is being written; try again when it is done." })
      return written.value
    })

    const remove = fnNamed("backups.remove")(function* (id: string) {
      yield* find(id)
      yield* Effect.promise(() => rm(archiveOf(id), { force: true }))
      yield* Effect.promise(() => rm(join(backupDir, `${id}.json`), { force: true }))
    })

    const verify = fnNamed("backups.verify")(function* (id: string, passphrase: string) {
      yield* find(id)
      return yield* Effect.promise(() => verifyBackup(archiveOf(id), passphrase, backupDir))
    })

    /** The backup's file opened for the download route. */
    const openArchive = fnNamed("backups.open")(function* (id: string) {
      yield* find(id)
      const handle = yield* Effect.promise(() => open(archiveOf(id), "r"))
      const stats = yield* Effect.promise(() => handle.stat())
      return { handle, stats, name: `${id}${ARCHIVE_SUFFIX}` }
    })

    const schedule = fnNamed("backups.schedule")(function* () {
      yield* sqliteOnly
      const last = yield* Ref.get(lastRun)
      const state: BackupSchedule = {
        everyHours: Option.getOrNull(backupSettings.backupEveryHours),
        keep: backupSettings.backupKeep,
        lastRunAt: last.at,
        lastError: last.error
      }
      return state
    })

    /** Removes the oldest scheduled backups past `keep` (backups made by hand are never pruned). */
    const prune = fnNamed("backups.prune")(function* (keep: number) {
      const scheduled = yield* Effect.filter(yield* list(), (backup) =>
        Effect.promise(() =>
          readFile(join(backupDir, `${backup.id}.json`), "utf8").then(
            (text) => (JSON.parse(text) as { scheduled?: unknown }).scheduled === true,
            () => false
          )
        )
      )
      yield* Effect.forEach(scheduled.slice(keep), (backup) => remove(backup.id), { discard: true })
    })

    return { backupDir, onPostgres, list, create, prune, remove, verify, openArchive, schedule, lastRun } as const
  })
}) {}
