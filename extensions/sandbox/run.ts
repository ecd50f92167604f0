/** One python or sh run as every process tier (nova, docker, local) receives it. */
import type { CodeLanguage } from "../../kernel/extensions/process.ts"

export interface TierRun {
  readonly code: string
  readonly language: Exclude<CodeLanguage, "javascript">
  /** The host folder the run may write: the project's workspace or a folder of its own. */
  readonly workspace: string
  readonly timeoutMs: number
  readonly signal?: AbortSignal
}
