/**
 * The backups feature's settings (docs/operations.md "Backups" lists each with its default): where backups are
 * written, and the schedule (off unless BACKUP_EVERY_HOURS is set, which then needs BACKUP_PASSPHRASE).
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { join, resolve } from "node:path"
import { optionalSecret, optionalString, settingsLayer } from "../../kernel/settings.ts"
import { DEFAULT_MAX_RESTORE_BYTES, MAX_RESTORE_BYTES_SETTING, MIN_PASSPHRASE_LENGTH } from "./contract/records.ts"
import { DEFAULT_MAX_IMPORT_BYTES, MAX_IMPORT_BYTES_SETTING } from "./imports/contract/records.ts"

export const backupsSettingsConfig = Config.all({
  /** The folder backups are written to; None: `<DATA_DIR>/backups`. */
  backupDir: optionalString("BACKUP_DIR"),
  /** Hours between scheduled backups; None: no schedule. */
  backupEveryHours: Config.option(
    Config.number("BACKUP_EVERY_HOURS").pipe(
      Config.validate({ message: "BACKUP_EVERY_HOURS must be more than 0", validation: (hours) => hours > 0 })
    )
  ),
  /** The passphrase scheduled backups are encrypted to (and `npm run restore` tries before asking). */
  backupPassphrase: optionalSecret("BACKUP_PASSPHRASE"),
  /** The key sealed secrets are opened with (the twin's setting, read here too): a backup carries it in `keys/`. */
  encryptionKey: optionalSecret("ENCRYPTION_KEY"),
  /** Bytes of one import request's whole body (`POST /api/twin/import`; its route's BodyLimit reads the same). */
  maxImportBytes: Config.integer(MAX_IMPORT_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_IMPORT_BYTES),
    Config.validate({ message: `${MAX_IMPORT_BYTES_SETTING} must be at least 1024`, validation: (n) => n >= 1024 })
  ),
  /** Bytes of one restore's upload from the register page (`POST /api/setup/restore`; its BodyLimit reads it too). */
  maxRestoreBytes: Config.integer(MAX_RESTORE_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_RESTORE_BYTES),
    Config.validate({ message: `${MAX_RESTORE_BYTES_SETTING} must be at least 1024`, validation: (n) => n >= 1024 })
  ),
  /** Scheduled backups kept: past it the oldest are removed first. */
  backupKeep: Config.integer("BACKUP_KEEP").pipe(
    Config.withDefault(7),
    Config.validate({ message: "BACKUP_KEEP must be at least 1", validation: (keep) => keep >= 1 })
  )
}).pipe(
  Config.validate({
    message: `BACKUP_EVERY_HOURS needs BACKUP_PASSPHRASE (at least ${MIN_PASSPHRASE_LENGTH} characters)`,
    validation: (settings) =>
      Option.isNone(settings.backupEveryHours) ||
      Option.exists(settings.backupPassphrase, (value) => Redacted.value(value).length >= MIN_PASSPHRASE_LENGTH)
  })
)

export type BackupsSettingsShape = Config.Config.Success<typeof backupsSettingsConfig>

export class BackupsSettings extends Context.Tag("backups/BackupsSettings")<BackupsSettings, BackupsSettingsShape>() {
  static readonly layer = (overrides?: Partial<BackupsSettingsShape>) =>
    settingsLayer(BackupsSettings, backupsSettingsConfig, overrides)
}

/** BACKUP_DIR as an absolute path. */
export const backupDirOf = (settings: BackupsSettingsShape, dataDir: string): string =>
  resolve(Option.getOrElse(settings.backupDir, () => join(dataDir, "backups")))
