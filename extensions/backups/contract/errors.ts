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
