/**
 * A backup checked with its passphrase: it decrypts, every entry's SHA-256 is its manifest's, its database passes
 * `PRAGMA integrity_check` and holds the counts the manifest says. Anything else is a problem named, never a throw.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { join } from "node:path"
import type { BackupCounts, BackupVerification } from "./contract/records.ts"
import { hashProblems, readBackup, UnreadableBackup } from "./archive-read.ts"
import { inspectDatabase } from "./snapshot.ts"

/** Where the counts of a database and the manifest disagree, in words. */
export const countProblems = (manifest: BackupCounts, found: BackupCounts): Array<string> =>
  (Object.keys(manifest) as Array<keyof BackupCounts>)
    .filter((key) => manifest[key] !== found[key])
    .map((key) => `The manifest counts ${manifest[key]} ${key}; the backup holds ${found[key]}`)

/** Verifies the backup at `file`, using a scratch folder under `scratchRoot` for its database. */
export const verifyBackup = async (
  file: string,
  passphrase: string,
  scratchRoot: string
): Promise<BackupVerification> => {
  const scratch = await mkdtemp(join(scratchRoot, ".verify-"))
  try {
    const read = await readBackup(file, passphrase, (path) => (path === "node.db" ? join(scratch, "node.db") : null))
    const problems = hashProblems(read)
    if (!read.sha256.has("node.db")) return { ok: false, counts: null, problems: [...problems, "No node.db inside"] }
    const report = inspectDatabase(join(scratch, "node.db"))
    const counts = { ...report.counts, files: read.files }
    problems.push(
      ...report.integrityProblems.slice(0, 20).map((line) => `integrity_check: ${line.slice(0, 200)}`),
      ...countProblems(read.manifest.counts, counts)
    )
    return { ok: problems.length === 0, counts, problems }
  } catch (error) {
    const message = error instanceof UnreadableBackup ? error.message : `The backup could not be read: ${String(error)}`
    return { ok: false, counts: null, problems: [message.slice(0, 300)] }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}
