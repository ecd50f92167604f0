/**
 * The main thread's side of worker.ts: one worker, started on first use, given one expression at
 * a time. An expression that overruns its time or memory takes the worker down with it; the next
 * call starts a fresh one. An idle worker is let go after a minute so it holds no memory.
 */
import { Worker } from "node:worker_threads"
import { SkillFailure } from "../../kernel/extensions/skill.ts"
import type { EvaluateReply } from "./worker.ts"

/** How long one expression may compute, once the worker is ready. */
const evaluationTimeoutMs = 3_000
const idleMs = 60_000
const workerUrl = new URL("./worker.ts", import.meta.url)

type Evaluated = Extract<EvaluateReply, { ok: true }>

interface Running {
  readonly worker: Worker
  readonly ready: Promise<void>
  idle: ReturnType<typeof setTimeout> | undefined
}

let running: Running | undefined
let queue: Promise<unknown> = Promise.resolve()
let nextId = 0

const stop = (current: Running) => {
  if (running === current) running = undefined
  clearTimeout(current.idle)
  void current.worker.terminate()
}

const start = (): Running => {
  const worker = new Worker(workerUrl, { resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 } })
  worker.unref()
  const ready = new Promise<void>((resolve, reject) => {
    worker.once("message", () => resolve())
    worker.once("error", reject)
  })
  const current: Running = { worker, ready, idle: undefined }
  worker.once("exit", () => {
    if (running === current) running = undefined
  })
  return current
}

const failureOf = (error: unknown) =>
  new SkillFailure({
    message:
      (error as NodeJS.ErrnoException | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? "The expression needs more memory than math.evaluate allows."
        : `math.evaluate could not run the expression: ${error instanceof Error ? error.message : String(error)}`
  })

const evaluateOnce = async (expression: string, signal: AbortSignal): Promise<Evaluated> => {
  running ??= start()
  const current = running
  clearTimeout(current.idle)
  await current.ready.catch((error) => {
    stop(current)
    throw failureOf(error)
  })
  const id = nextId++
  let answered = false
  try {
    return await new Promise<Evaluated>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer)
        signal.removeEventListener("abort", onAbort)
        current.worker.off("message", onMessage).off("error", onError).off("exit", onExit)
        settle()
      }
      const onMessage = (reply: EvaluateReply) => {
        if (reply.id !== id) return
        answered = true
        finish(() => (reply.ok ? resolve(reply) : reject(new SkillFailure({ message: reply.error }))))
      }
      const onError = (error: unknown) => finish(() => reject(failureOf(error)))
      const onExit = () => finish(() => reject(failureOf(new Error("the worker stopped"))))
      const onAbort = () => finish(() => reject(new SkillFailure({ message: "math.evaluate was stopped." })))
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(
              new SkillFailure({ message: `The expression took longer than ${evaluationTimeoutMs / 1000} seconds.` })
            )
          ),
        evaluationTimeoutMs
      )
      current.worker.on("message", onMessage).on("error", onError).on("exit", onExit)
      signal.addEventListener("abort", onAbort, { once: true })
      current.worker.postMessage({ id, expression })
    })
  } catch (error) {
    // Unanswered, the worker may still be computing (or be dead): never hand it the next expression.
    if (!answered) stop(current)
    throw error
  } finally {
    if (running === current) current.idle = setTimeout(() => stop(current), idleMs).unref()
  }
}

/** Evaluates one expression in the worker; a refused or failed expression rejects with a SkillFailure. */
export const evaluateExpression = (expression: string, signal: AbortSignal): Promise<Evaluated> => {
  const turn = queue.then(() => evaluateOnce(expression, signal))
  queue = turn.catch(() => undefined)
  return turn
}
