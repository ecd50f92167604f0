/** What GET /api/health says of the sandbox: the tier code runs in, and what protects it here. */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export const SandboxStatus = Schema.Struct({
  /** python and sh can run sandboxed in the chosen tier (javascript always runs in an isolate). */
  available: Schema.Boolean,
  /** The tier python and sh run in: nova or docker; null when none is available. */
  runtime: Schema.NullOr(Schema.Literal("nova", "docker")),
  /** Why the chosen tier is unavailable, and how to enable it; null when it is available. */
  reason: Schema.NullOr(Schema.String),
  checkedAt: Schema.String,
  /** SVC_SANDBOX_RUNTIME. */
  setting: Schema.Literal("auto", "nova", "docker"),
  /** SVC_SANDBOX_ALLOW_LOCAL: unavailable tiers then run code unsandboxed. */
  allowLocal: Schema.Boolean,
  /** What the chosen tier applies on this machine, in words ("seccomp filter", "landlock ABI 7", ...). */
  protections: Schema.Array(Schema.String),
  /** What the probe found the kernel allows. */
  checks: Schema.Struct({
    namespaces: Schema.Boolean,
    seccomp: Schema.Boolean,
    landlockAbi: Schema.Int,
    cgroups: Schema.Array(Schema.String),
    docker: Schema.Boolean
  })
})
export type SandboxStatus = typeof SandboxStatus.Type

/** The sandbox as other features may read it: its status, probed when asked (GET /api/health). */
export class SandboxHealth extends Context.Tag("sandbox/SandboxHealth")<
  SandboxHealth,
  { readonly status: Effect.Effect<SandboxStatus> }
>() {}
