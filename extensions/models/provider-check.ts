/**
 * Asking a model server what it serves: `GET {baseUrl}/models`, the OpenAI protocol's model list,
 * which Ollama, llama.cpp's server, vLLM and LM Studio answer too. Bounded like every call the node
 * makes to another host: a deadline, no redirect followed (a key is never carried elsewhere), at
 * most 1 MiB read. A server that cannot be reached or refuses is an answer (`ok: false` and why),
 * never a failure of the route.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { connect } from "node:net"
import type { ProviderCheck } from "./contract/providers.ts"
import { demoFetch } from "./demo/demo-fetch.ts"

const MAX_LIST_BYTES = 1024 * 1024

export interface Server {
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  /** The demo models answer in-process. */
  readonly builtin: boolean
}

/** The innermost reason a connection failed ("connect ECONNREFUSED 127.0.0.1:11434"), not fetch's "fetch failed". */
const rootCause = (error: unknown): string => {
  let current = error
  while (current instanceof Error && current.cause instanceof Error) current = current.cause
  return current instanceof Error ? current.message : String(current)
}

const readBounded = async (response: Response): Promise<string> => {
  const reader = response.body?.getReader()
  if (reader === undefined) return ""
  const chunks: Array<Uint8Array> = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > MAX_LIST_BYTES) {
      await reader.cancel()
      throw new Error(`its model list is larger than ${MAX_LIST_BYTES} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString("utf8")
}

const modelIdsOf = (text: string): ReadonlyArray<string> | null => {
  try {
    const parsed: unknown = JSON.parse(text)
    const data = typeof parsed === "object" && parsed !== null ? (parsed as { data?: unknown }).data : undefined
    if (!Array.isArray(data)) return null
    return data
      .map((entry) => (typeof entry === "object" && entry !== null ? (entry as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === "string")
      .sort()
  } catch {
    return null
  }
}

/** The server's models within `timeoutMs`, or why not. */
export const listModels = (server: Server, timeoutMs: number): Effect.Effect<ProviderCheck> =>
  Effect.promise(async () => {
    const started = performance.now()
    const answer = (ok: boolean, models: ReadonlyArray<string>, error: string | null): ProviderCheck => ({
      ok,
      models,
      latencyMs: Math.round(performance.now() - started),
      error
    })
    const url = `${server.baseUrl.replace(/\/+$/, "")}/models`
    const headers = Option.match(server.apiKey, {
      onNone: () => ({}),
      onSome: (key) => ({ authorization: `Bearer ${Redacted.value(key)}` })
    })
    try {
      const fetched = server.builtin ? demoFetch : fetch
      const response = await fetched(url, { headers, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) })
      if (response.status >= 300 && response.status < 400)
        return answer(false, [], `answered ${response.status} (a redirect, not followed)`)
      if (!response.ok) return answer(false, [], `answered ${response.status} ${response.statusText}`.trim())
      const models = modelIdsOf(await readBounded(response))
      return models === null
        ? answer(false, [], "answered something other than an OpenAI model list")
        : answer(true, models, null)
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
      return answer(
        false,
        [],
        timedOut ? `did not answer within ${timeoutMs} ms` : `could not be reached (${rootCause(error)})`
      )
    }
  })

/**
 * Whether something accepts a connection on the loopback port within `timeoutMs`. Asked before the model list, so a
 * start on a machine with no local model server (the usual case) makes no HTTP request: the first `fetch` loads
 * Node's HTTP client, about 15 MB an idle node would otherwise hold (docs/benchmarks.md, "Idle RSS").
 */
const listening = (port: number, timeoutMs: number) =>
  Effect.async<boolean>((resume) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: timeoutMs })
    const settle = (open: boolean) => {
      socket.destroy()
      resume(Effect.succeed(open))
    }
    socket.once("connect", () => settle(true))
    socket.once("timeout", () => settle(false))
    socket.once("error", () => settle(false))
    return Effect.sync(() => socket.destroy())
  })

/** The local servers answering on the loopback ports given, each asked within `timeoutMs`, at once. */
export const detectLocal = (ports: ReadonlyArray<number>, timeoutMs: number) =>
  Effect.map(
    Effect.forEach(
      ports,
      (port) => {
        const baseUrl = `http://127.0.0.1:${port}/v1`
        const asked = Effect.map(listModels({ baseUrl, apiKey: Option.none(), builtin: false }, timeoutMs), (check) =>
          check.ok ? Option.some({ baseUrl, models: check.models }) : Option.none()
        )
        return Effect.flatMap(listening(port, timeoutMs), (open) => (open ? asked : Effect.succeedNone))
      },
      { concurrency: "unbounded" }
    ),
    (answers) => answers.flatMap(Option.toArray)
  )
