/** Runs fixtures/journal-node.ts as a real child process on Node 24 and watches its output. */
import Database from "better-sqlite3"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

const node = fileURLToPath(new URL("../../../node_modules/.bin/node", import.meta.url))
const script = fileURLToPath(new URL("fixtures/journal-node.ts", import.meta.url))

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface JournalProcess {
  /** Resolves once the process has printed this line; rejects if it exits or stays silent first. */
  readonly printed: (line: string, timeoutMs?: number) => Promise<void>
  readonly exited: Promise<Exit>
  readonly kill: (signal: NodeJS.Signals) => void
  readonly output: () => string
}

export const startJournalNode = (env: Record<string, string>): JournalProcess => {
  const child = spawn(node, [script], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  const listeners = new Set<() => void>()
  const onOutput = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout.on("data", onOutput)
  child.stderr.on("data", onOutput)
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })))
  let hasExited = false
  void exited.then(() => {
    hasExited = true
    for (const listener of listeners) listener()
  })

  const printed = (line: string, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.split("\n").includes(line)) done(resolve)
        else if (hasExited) done(() => reject(new Error(`exited before printing "${line}":\n${output}`)))
      }
      const timer = setTimeout(() => done(() => reject(new Error(`did not print "${line}":\n${output}`))), timeoutMs)
      const done = (settle: () => void) => {
        clearTimeout(timer)
        listeners.delete(check)
        settle()
      }
      listeners.add(check)
      check()
    })

  return { printed, exited, kill: (signal) => child.kill(signal), output: () => output }
}

/** Reads the node's database file as an outside observer would, between runs of the process. */
export const readDatabase = <Row>(filename: string, query: string): Array<Row> => {
  const db = new Database(filename)
  try {
    return db.prepare(query).all() as Array<Row>
  } finally {
    db.close()
  }
}
