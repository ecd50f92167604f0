/**
 * `npm run restore -- <file> [--force]`: restores a backup (extensions/backups) into this node's DATA_DIR, FILES_DIR
 * and PLUGIN_DIR, with the node stopped. The passphrase is BACKUP_PASSPHRASE, else asked on the terminal (not echoed).
 * A non-empty DATA_DIR is refused unless --force, which moves it aside; a wrong passphrase, a damaged file or a newer
 * format stops with a clear message and changes nothing.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createInterface } from "node:readline"
import { Writable } from "node:stream"
import { resolve } from "node:path"
import { filesDirOf } from "../kernel/file-stores.ts"
import { Settings } from "../kernel/settings.ts"
import { readEncryptionKeyFile } from "../kernel/encryption-key.ts"
import { BackupsSettings } from "../extensions/backups/settings.ts"
import { UnreadableBackup } from "../extensions/backups/archive-read.ts"
import { restoreBackup, RestoreRefused } from "../extensions/backups/restore.ts"

const usage = "Usage: npm run restore -- <backup-….tar.gz.age> [--force]"

/** Asks for the passphrase on the terminal without echoing it. */
const askPassphrase = () =>
  new Promise<string>((done) => {
    let muted = false
    const output = new Writable({
      write(chunk, _encoding, next) {
        if (!muted) process.stdout.write(chunk)
        next()
      }
    })
    const terminal = createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY === true })
    terminal.question("Backup passphrase: ", (answer) => {
      terminal.close()
      process.stdout.write("\n")
      done(answer)
    })
    muted = true
  })

const args = process.argv.slice(2)
const force = args.includes("--force")
const files = args.filter((arg) => !arg.startsWith("--"))
if (files.length !== 1 || args.some((arg) => arg.startsWith("--") && arg !== "--force")) {
  console.error(usage)
  process.exit(2)
}

const { settings, backups } = await Effect.runPromise(
  Effect.all({ settings: Settings, backups: BackupsSettings }).pipe(
    Effect.provide(Settings.layer),
    Effect.provide(BackupsSettings.layer())
  )
).catch((error: unknown) => {
  console.error(`The settings do not read: ${String(error)}`)
  process.exit(2)
})

if (Option.isSome(settings.databaseUrl)) {
  console.error(
    'This node keeps its database on PostgreSQL: restore it with pg_restore (docs/operations.md "Backups").'
  )
  process.exit(1)
}

const passphrase = Option.isSome(backups.backupPassphrase)
  ? Redacted.value(backups.backupPassphrase.value)
  : await askPassphrase()

try {
  const outcome = await restoreBackup(
    resolve(files[0]!),
    passphrase,
    { dataDir: settings.dataDir, filesDir: filesDirOf(settings), pluginDir: settings.pluginDir },
    { force, now: new Date() }
  )
  for (const line of outcome.movedAside) console.log(`Moved aside: ${line}`)
  const counts = Object.entries(outcome.counts)
    .map(([name, count]) => `${count} ${name}`)
    .join(", ")
  console.log(`Restored the backup of ${outcome.createdAt} into ${resolve(settings.dataDir)}: ${counts}.`)
  if (outcome.restoredKey && Option.isSome(backups.encryptionKey)) {
    const same = Redacted.value(backups.encryptionKey.value) === readEncryptionKeyFile(settings.dataDir)
    if (!same)
      console.log(
        "ENCRYPTION_KEY in your environment is not the one the backup carried: unset it (the node then reads " +
          "DATA_DIR/keys/ENCRYPTION_KEY) or the restored connection secrets will not open."
      )
  }
  console.log("Start the node as usual.")
} catch (error) {
  const known = error instanceof RestoreRefused || error instanceof UnreadableBackup
  console.error(known ? (error as Error).message : `The restore failed: ${String(error)}`)
  console.error("Nothing was changed.")
  process.exitCode = 1
}
