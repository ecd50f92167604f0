/**
 * A backup of a node's data (issue 29): the backup feature's writer (VACUUM INTO snapshot, tar, gzip, age) on a data
 * folder of N memories and M bytes of files, beside the anchor, `tar -cz` of the same folders (no snapshot, no
 * encryption), in the same run: time, the writer's peak RSS (a child process of its own), archive size. The files are
 * random bytes, as photos and PDFs nearly are: gzip gains nothing on them.
 * The size by default: 100,000 memories and 1 GiB (about a minute of a quiet two-core machine, 3 GiB of the
 * temporary folder for the while); `npm run bench -- backups --quick`: 10,000 memories and 64 MiB.
 */
import Database from "better-sqlite3"
import { execFileSync, spawnSync } from "node:child_process"
import { randomFillSync } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { writeBackup } from "../../extensions/backups/archive-write.ts"
import { recordVerdict } from "./verdicts.ts"

const PASSPHRASE = "a bench passphrase of some length"

/** A data folder: a database of `memories` rows and `fileBytes` of files in 8 MiB pieces under uploads/. */
const makeData = (dir: string, memories: number, fileBytes: number) => {
  mkdirSync(dir, { recursive: true })
  const db = new Database(join(dir, "node.db"))
  db.pragma("journal_mode = WAL")
  db.exec(`CREATE TABLE beings (id TEXT PRIMARY KEY);
    CREATE TABLE twin_memories (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, being_id TEXT NOT NULL, kind TEXT,
      content TEXT NOT NULL, importance REAL, tags TEXT, source TEXT, created_at TEXT)`)
  db.prepare("INSERT INTO beings VALUES ('ada')").run()
  const insert = db.prepare(
    "INSERT INTO twin_memories (id, being_id, kind, content, importance, tags, source, created_at) VALUES (?, 'ada', 'fact', ?, 0.5, '[]', 'bench', ?)"
  )
  db.transaction(() => {
    for (let n = 0; n < memories; n++)
      insert.run(
        `m-${n}`,
        `Memory ${n}: the tea on the upper shelf was bought in Kyoto, batch ${n % 97}.`,
        new Date(n).toISOString()
      )
  })()
  db.close()
  const folder = join(dir, "uploads", "ada")
  mkdirSync(folder, { recursive: true })
  const piece = Buffer.alloc(8 * 1024 * 1024)
  for (let written = 0, n = 0; written < fileBytes; n++) {
    const size = Math.min(piece.length, fileBytes - written)
    randomFillSync(piece, 0, size)
    writeFileSync(join(folder, `file-${n}.bin`), piece.subarray(0, size))
    written += size
  }
  mkdirSync(join(dir, "plugins"), { recursive: true })
}

/** Run in a child: one backup of `dir` into `out`; prints its time, peak RSS and size as JSON. */
const child = async (dir: string, out: string) => {
  const started = performance.now()
  const backup = await writeBackup(
    {
      databaseFile: join(dir, "node.db"),
      filesDir: dir,
      pluginDir: join(dir, "plugins"),
      encryptionKey: null,
      nodeVersion: "bench"
    },
    out,
    PASSPHRASE,
    new Date()
  )
  const ms = performance.now() - started
  console.log(JSON.stringify({ ms, maxRssKb: process.resourceUsage().maxRSS, bytes: backup.bytes }))
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

export const benchBackups = async (full = !process.argv.includes("--quick")) => {
  const memories = full ? 100_000 : 10_000
  const fileBytes = full ? 1024 ** 3 : 64 * 1024 ** 2
  const dir = mkdtempSync(join(tmpdir(), "bench-backups-"))
  try {
    makeData(join(dir, "data"), memories, fileBytes)
    const self = fileURLToPath(import.meta.url)
    const run = spawnSync(process.execPath, [self, "--child", join(dir, "data"), join(dir, "out")], {
      encoding: "utf8"
    })
    if (run.status !== 0) throw new Error(`the backup child failed: ${run.stderr.slice(0, 400)}`)
    const ours = JSON.parse(run.stdout.trim().split("\n").pop()!) as { ms: number; maxRssKb: number; bytes: number }

    const started = performance.now()
    execFileSync("sh", [
      "-c",
      `tar -cf - -C '${join(dir, "data")}' node.db uploads plugins | gzip > '${join(dir, "anchor.tar.gz")}'`
    ])
    const anchorMs = performance.now() - started
    const anchorBytes = statSync(join(dir, "anchor.tar.gz")).size

    console.log(
      `  ${memories.toLocaleString("en")} memories and ${mib(fileBytes)} of files${full ? "" : " (--quick; the issue's size without it: 100,000 and 1 GiB)"}`
    )
    console.log(`  anchor, tar | gzip:     ${(anchorMs / 1000).toFixed(2)} s, ${mib(anchorBytes)}`)
    console.log(
      `  backup (snapshot, tar, gzip, age): ${(ours.ms / 1000).toFixed(2)} s (${(ours.ms / anchorMs).toFixed(2)}× the anchor), ` +
        `peak RSS ${mib(ours.maxRssKb * 1024)}, ${mib(ours.bytes)} (${(ours.bytes / anchorBytes).toFixed(3)}× the anchor's size)`
    )
    recordVerdict({
      figure: `backup of ${memories.toLocaleString("en")} memories and ${mib(fileBytes)}: time`,
      measured: `${(ours.ms / 1000).toFixed(2)} s`,
      anchor: `tar | gzip ${(anchorMs / 1000).toFixed(2)} s`,
      aim: "none set (issue 29 asks for the figures)",
      met: null
    })
    recordVerdict({
      figure: "backup: peak RSS (flat whatever the size; age's scrypt takes 256 MiB)",
      measured: mib(ours.maxRssKb * 1024),
      anchor: "—",
      aim: "none set",
      met: null
    })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  if (process.argv[2] === "--child") await child(process.argv[3]!, process.argv[4]!)
  else await benchBackups()
}
