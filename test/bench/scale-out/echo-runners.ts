/**
 * The parent's side of ./echo-runner.ts: spawn one at a free address on a database, send it
 * commands over IPC and await their answers, kill it.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { freePort } from "../../support/free-port.ts"
import type { EchoAnswer, EchoCommand } from "./echo-runner.ts"

const nodeBinary = fileURLToPath(new URL("../../../node_modules/.bin/node", import.meta.url))
const script = fileURLToPath(new URL("echo-runner.ts", import.meta.url))

type Command = EchoCommand extends infer C ? (C extends { readonly id: number } ? Omit<C, "id"> : never) : never

export interface EchoRunner {
  readonly address: string
  readonly pid: number
  readonly ask: (command: Command) => Promise<EchoAnswer>
  /** SIGKILL; resolves once the process is gone. */
  readonly kill: () => Promise<void>
}

const live = new Set<ChildProcess>()
process.on("exit", () => {
  for (const child of live) child.kill("SIGKILL")
})

export const startEchoRunner = async (databaseUrl: string): Promise<EchoRunner> => {
  const address = `127.0.0.1:${await freePort()}`
  const child = spawn(nodeBinary, [script], {
    env: { ...process.env, DATABASE_URL: databaseUrl, RUNNER_ADDRESS: address },
    stdio: ["ignore", "pipe", "pipe", "ipc"]
  })
  live.add(child)
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      live.delete(child)
      resolve()
    })
  )
  const waiting = new Map<number, (answer: EchoAnswer) => void>()
  child.on("message", (answer: EchoAnswer) => {
    waiting.get(answer.id)?.(answer)
    waiting.delete(answer.id)
  })
  await new Promise<void>((resolve, reject) => {
    waiting.set(0, () => resolve())
    void exited.then(() => reject(new Error(`the echo runner exited before it was ready:\n${output}`)))
  })
  let next = 1
  return {
    address,
    pid: child.pid!,
    ask: (command) =>
      new Promise((resolve, reject) => {
        const id = next++
        waiting.set(id, resolve)
        child.send({ ...command, id }, (error) => error && reject(error))
      }),
    kill: async () => {
      child.kill("SIGKILL")
      await exited
    }
  }
}
