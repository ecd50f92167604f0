/**
 * code.execute (issue 11): a snippet of JavaScript, Python or shell run in a sandbox the host
 * chose, through the `process` adapter, the only way a skill reaches one. World-acting: it runs
 * only when a human approved this exact call. The answer is the runner's own report, `sandboxed`
 * included, so whoever acts on the run reads that field, never the exit code.
 */
import * as Schema from "effect/Schema"
import { codeLanguages, sandboxRuntimes } from "../../kernel/extensions/process.ts"
import { defineSkill, refusedAsSkillFailure, SkillFailure, withDefault } from "../../kernel/extensions/skill.ts"

/**
 * Characters of code: at most 3 bytes each, it fits the one argument Linux allows (128 KiB); a larger program belongs
 * in files.
 */
export const maxCodeChars = 40_000
export const defaultCodeTimeoutMs = 30_000
export const maxCodeTimeoutMs = 120_000

const Input = Schema.Struct({
  code: Schema.String.pipe(
    Schema.filter((code) => code.trim() !== "" || "there is no code to run"),
    Schema.maxLength(maxCodeChars, { message: () => `code is longer than ${maxCodeChars} characters` })
  ).annotations({ description: "The program's source." }),
  language: Schema.Literal(...codeLanguages).annotations({
    description:
      "javascript runs in an isolate (no require, process, files or network); python and sh in the node's sandbox."
  }),
  timeoutMs: withDefault(Schema.Int.pipe(Schema.between(100, maxCodeTimeoutMs)), defaultCodeTimeoutMs).annotations({
    description: "Wall-clock limit; the run is killed whole when it passes."
  })
})

const Output = Schema.Struct({
  stdout: Schema.String,
  stderr: Schema.String,
  exitCode: Schema.Int.annotations({
    description: "124 when the time ran out; 128 + n when killed by signal n (137: out of memory)."
  }),
  timedOut: Schema.Boolean,
  sandboxed: Schema.Boolean.annotations({ description: "The runner's own word that the code ran isolated." }),
  unsandboxed: Schema.Boolean.annotations({
    description: "True only when the owner allowed unsandboxed runs and this one was."
  }),
  runtime: Schema.Literal(...sandboxRuntimes)
})

export const execute = defineSkill({
  description:
    "Run a JavaScript, Python or shell snippet in a sandbox (no network, only the workspace writable) and answer its output.",
  input: Input,
  output: Output,
  timeoutMs: maxCodeTimeoutMs + 10_000,
  run: (input, context) => {
    const sandbox = context.adapters.process
    if (sandbox === undefined)
      return new SkillFailure({
        message: "code.execute has no sandbox: the 'process' capability is not wired on this node."
      })
    return refusedAsSkillFailure(
      sandbox.execute({ code: input.code, language: input.language, timeoutMs: input.timeoutMs })
    )
  }
})
