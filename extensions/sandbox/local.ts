/**
 * The unsandboxed run, only when the owner set SVC_SANDBOX_ALLOW_LOCAL and the chosen tier is
 * unavailable: the interpreter runs as the node's own user in the workspace, with the wall clock
 * and a clean environment as its only limits, and the report says so itself.
 */
import type { CodeLanguage, CodeReport } from "../../kernel/extensions/process.ts"
import type { TierRun } from "./run.ts"
import { cleanEnv, spawnRun } from "./spawn-run.ts"

const command = (language: Exclude<CodeLanguage, "javascript">, code: string): ReadonlyArray<string> =>
  language === "python" ? ["python3", "-I", "-c", code] : ["/bin/sh", "-c", code]

export const runLocal = async (options: TierRun): Promise<CodeReport> => {
  const result = await spawnRun({
    argv: command(options.language, options.code),
    env: cleanEnv(options.workspace),
    cwd: options.workspace,
    timeoutMs: options.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal })
  })
  return { ...result, sandboxed: false, unsandboxed: true, runtime: "local" }
}
