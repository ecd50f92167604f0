/** The backups feature's named refusals (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A backup passphrase shorter than 12 characters. */
export class WeakPassphrase extends refusal(400, "WeakPassphrase", "weak_passphrase") {}

/** A node on PostgreSQL: its database is backed up with pg_dump (docs/operations.md "Backups"). */
export class UsePgDump extends refusal(409, "UsePgDump", "use_pg_dump") {}

/** A backup id that names no backup in BACKUP_DIR. */
export class BackupNotFound extends refusal(404, "BackupNotFound", "not_found") {}

/** A backup is being written already: one at a time. */
export class BackupRunning extends refusal(409, "BackupRunning", "backup_running") {}

/** A restore from the register page on a node that has an owner already: it changes nothing. */
export class OwnerExists extends refusal(409, "OwnerExists", "owner_exists") {}

/** A restore from the register page while another is being read or the node is relaunching. */
export class RestoreRunning extends refusal(409, "RestoreRunning", "restore_running") {}

/** A node that cannot relaunch itself in place (not started by `npm start`): restore it with `npm run restore`. */
export class RelaunchUnavailable extends refusal(409, "RelaunchUnavailable", "relaunch_unavailable") {}

/** A restore with no file part. */
export class NoRestoreFile extends refusal(400, "NoRestoreFile", "no_file") {}

/** A restore body past MAX_RESTORE_BYTES. */
export class RestoreTooLarge extends refusal(413, "RestoreTooLarge", "payload_too_large") {}

/** A restore's body that is not readable multipart, or without its passphrase. */
export class MalformedRestore extends refusal(400, "MalformedRestore", "invalid_request") {}

/** A restore whose passphrase does not open the backup. */
export class WrongPassphrase extends refusal(400, "WrongPassphrase", "wrong_passphrase") {}

/** A restore of a file that is not a node's backup. */
export class NotABackup extends refusal(400, "NotABackup", "not_a_backup") {}

/** A restore of a backup written by a newer node than this one. */
export class NewerBackupFormat extends refusal(400, "NewerBackupFormat", "newer_backup_format") {}

/** A restore of a backup that fails its checks (a SHA-256, the database's integrity, a cut-off archive). */
export class DamagedBackup extends refusal(400, "DamagedBackup", "damaged_backup") {}
