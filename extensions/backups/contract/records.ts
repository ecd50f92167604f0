/** What the backups routes take and answer: a backup's summary, its counts, a verification. */
import * as Schema from "effect/Schema"

/** The least length of a backup passphrase (400 `weak_passphrase` below it). */
export const MIN_PASSPHRASE_LENGTH = 12

/** The archive format this node writes and the newest it reads. */
export const BACKUP_FORMAT = 1

/** What a backup holds, counted in its own database snapshot (files: the regular files under `files/`). */
export const BackupCounts = Schema.Struct({
  beings: Schema.Number,
  memories: Schema.Number,
  events: Schema.Number,
  todos: Schema.Number,
  messages: Schema.Number,
  projects: Schema.Number,
  files: Schema.Number,
  listings: Schema.Number
})
export type BackupCounts = typeof BackupCounts.Type

/** `backup-<UTC time>` (ISO 8601 basic, e.g. backup-20261130T131154Z), a suffix `-2`… when two share a second. */
export const BackupId = Schema.String.pipe(Schema.pattern(/^backup-\d{8}T\d{6}Z(-\d{1,4})?$/), Schema.maxLength(40))

export const Backup = Schema.Struct({
  id: BackupId,
  /** ISO 8601. */
  createdAt: Schema.String,
  /** Size of the encrypted file. */
  bytes: Schema.Number,
  /** SHA-256 (hex) of the encrypted file, as downloaded. */
  sha256: Schema.String,
  counts: BackupCounts
})
export type Backup = typeof Backup.Type

const Passphrase = Schema.String.pipe(Schema.maxLength(1024))

export const CreateBackupRequest = Schema.Struct({ passphrase: Passphrase })
export const VerifyBackupRequest = Schema.Struct({ passphrase: Passphrase })

export const BackupIdParams = Schema.Struct({ id: BackupId })

export const BackupVerification = Schema.Struct({
  ok: Schema.Boolean,
  /** The counts of the database inside, or null when it could not be read. */
  counts: Schema.NullOr(BackupCounts),
  problems: Schema.Array(Schema.String)
})
export type BackupVerification = typeof BackupVerification.Type

/** The schedule's state, for the web app: off, or every so many hours with the last outcome. */
export const BackupSchedule = Schema.Struct({
  everyHours: Schema.NullOr(Schema.Number),
  keep: Schema.Number,
  lastRunAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String)
})
export type BackupSchedule = typeof BackupSchedule.Type

/** The setting bounding a restore's upload from the register page, and its default (8 GiB). */
export const MAX_RESTORE_BYTES_SETTING = "MAX_RESTORE_BYTES"
export const DEFAULT_MAX_RESTORE_BYTES = 8 * 1024 * 1024 * 1024

/** Whether the register page may offer a restore, and why not. */
export const RestoreAvailability = Schema.Struct({
  available: Schema.Boolean,
  /** Null when available; else the code a restore would be refused with (`owner_exists`, `use_pg_dump`, …). */
  reason: Schema.NullOr(Schema.String),
  /** MAX_RESTORE_BYTES: the largest backup the node takes. */
  maxBytes: Schema.Number
})
export type RestoreAvailability = typeof RestoreAvailability.Type

/** A restore taken: the backup was checked and the node is relaunching on it. */
export const RestoreStarted = Schema.Struct({
  restarting: Schema.Literal(true),
  /** When the backup was made (ISO 8601). */
  createdAt: Schema.String,
  /** The handle of the restored node's owner: who signs in next. */
  ownerHandle: Schema.NullOr(Schema.String),
  counts: BackupCounts
})
export type RestoreStarted = typeof RestoreStarted.Type
