/**
 * The `process` capability's adapter: code run in a sandbox the host chose (host/sandbox), never in
 * the node's own context. The host picks the tier, applies its limits and fails closed: when the
 * tier is unavailable the call is refused (a refusal whose message names the tier and how to
 * enable it) unless the owner set SVC_SANDBOX_ALLOW_LOCAL, and then the report says so itself.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "./capability-refused.ts"

export const codeLanguages = ["javascript", "python", "sh"] as const
export type CodeLanguage = (typeof codeLanguages)[number]

/** Where a run happened: an isolated-vm isolate, nova (bubblewrap), a Docker container, or unsandboxed. */
export const sandboxRuntimes = ["isolate", "nova", "docker", "local"] as const
export type SandboxRuntime = (typeof sandboxRuntimes)[number]

export interface CodeRun {
  readonly code: string
  readonly language: CodeLanguage
  /** Wall-clock limit; the run is killed, whole, when it passes. */
  readonly timeoutMs: number
}

export interface CodeReport {
  readonly stdout: string
  readonly stderr: string
  /** 124 when the wall clock ran out, 128 + n when killed by signal n (137: out of memory). */
  readonly exitCode: number
  readonly timedOut: boolean
  /** The runner's own word that the code ran isolated: what any decision about the run reads. */
  readonly sandboxed: boolean
  /** True only when the owner let code run unsandboxed (SVC_SANDBOX_ALLOW_LOCAL) and it did. */
  readonly unsandboxed: boolean
  readonly runtime: SandboxRuntime
}

export interface ProcessAdapter {
  /** Refused saying plainly why the code could not run (tier unavailable, too large). */
  readonly execute: (run: CodeRun) => Effect.Effect<CodeReport, CapabilityRefused>
}
