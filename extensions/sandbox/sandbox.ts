/**
 * The node's sandbox: where `code.execute` (and any plugin granted `process`) runs code, never in
 * the node's own context. javascript runs in an isolated-vm isolate; python and sh in the tier
 * SVC_SANDBOX_RUNTIME chooses (nova or docker) from what the probe found. It fails closed: a tier
 * that is unavailable refuses the run, naming itself and how to enable it, unless the owner set
 * SVC_SANDBOX_ALLOW_LOCAL, and then the report itself says `sandboxed: false, unsandboxed: true`.
 * A run works in the project's workspace, or outside a project in a folder of its own, removed after.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileRootFor } from "../../kernel/extensions/file-root.ts"
import { codeLanguages, type CodeReport, type CodeRun } from "../../kernel/extensions/process.ts"
import { Settings } from "../../kernel/settings.ts"
import { SandboxHealth, type SandboxStatus } from "./contract/status.ts"
import { runDocker } from "./docker.ts"
import { runInIsolate } from "./isolate.ts"
import { sandboxLimits } from "./limits.ts"
import { runLocal } from "./local.ts"
import { runNova } from "./nova.ts"
import { probeCacheMs, probeSandbox, type SandboxProbe } from "./probe.ts"
import { SandboxSettings } from "./settings.ts"
import { chooseTier, protectionsOf } from "./tier.ts"
import { serveInNova, type ServedProcess } from "./serve.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** A run the sandbox would not start; the message says why and what to change. */
export class SandboxRefused extends Data.TaggedError("SandboxRefused")<{ readonly message: string }> {}

/** Whose run: a project's (its workspace) or a being's outside one (a folder of its own). */
export interface RunScope {
  readonly beingId: string | null
  readonly projectId: string | null
}

const refuse = (message: string) => Effect.fail(new SandboxRefused({ message }))

/** What any caller may hand the adapter (plugin code may be plain JavaScript): checked plainly. */
const check = (run: CodeRun) => {
  if (!(codeLanguages as ReadonlyArray<unknown>).includes(run.language)) {
    return refuse(`"${String(run.language)}" is not a language the sandbox runs: javascript, python or sh.`)
  }
  if (typeof run.code !== "string" || run.code.trim() === "") return refuse("There is no code to run.")
  const bytes = Buffer.byteLength(run.code)
  if (bytes > sandboxLimits.codeBytes)
    return refuse(`The code is ${bytes} bytes; the sandbox takes at most ${sandboxLimits.codeBytes}.`)
  if (!Number.isInteger(run.timeoutMs) || run.timeoutMs < 1)
    return refuse("timeoutMs must be a positive whole number of milliseconds.")
  return Effect.void
}

/** A probe that failed outright counts as nothing available: it never rejects unobserved. */
const failedProbe = (now: number, error: unknown): SandboxProbe => ({
  checkedAt: new Date(now).toISOString(),
  namespaces: false,
  seccomp: false,
  landlockAbi: 0,
  cgroups: [],
  docker: false,
  novaReason: `the sandbox probe failed: ${error instanceof Error ? error.message : String(error)}`
})

export const makeSandbox = (probeWith: (now: number) => Promise<SandboxProbe>) =>
  Effect.gen(function* () {
    const probe = (now: number) => probeWith(now).catch((error: unknown) => failedProbe(now, error))
    const settings = yield* SandboxSettings
    const node = yield* Settings
    // Probed at start without holding the start up; a run or the health report waits for it.
    let latest = { at: Date.now(), result: probe(Date.now()) }
    const current = Effect.promise(() => {
      const now = Date.now()
      if (now - latest.at >= probeCacheMs) latest = { at: now, result: probe(now) }
      return latest.result
    })

    const status = Effect.map(current, (found): SandboxStatus => {
      const choice = chooseTier(settings.sandboxRuntime, found)
      return {
        available: choice.tier !== null,
        runtime: choice.tier,
        reason: choice.tier === null ? choice.refusal : null,
        checkedAt: found.checkedAt,
        setting: settings.sandboxRuntime,
        allowLocal: settings.sandboxAllowLocal,
        protections: protectionsOf(choice.tier, found),
        checks: {
          namespaces: found.namespaces,
          seccomp: found.seccomp,
          landlockAbi: found.landlockAbi,
          cgroups: found.cgroups,
          docker: found.docker
        }
      }
    }).pipe(spanNamed("sandbox.status"))

    /** The project's workspace, or a folder of the run's own that is removed after it. */
    const workspace = (scope: RunScope) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          if (scope.projectId === null) return { dir: mkdtempSync(join(tmpdir(), "svc-code-")), own: true }
          const dir = fileRootFor(node, scope.beingId ?? "node", scope.projectId).dir
          mkdirSync(dir, { recursive: true })
          return { dir, own: false }
        }),
        (folder) => Effect.sync(() => folder.own && rmSync(folder.dir, { recursive: true, force: true }))
      )

    const execute = fnNamed("sandbox.execute")(function* (run: CodeRun, scope: RunScope) {
      yield* check(run)
      yield* Effect.annotateCurrentSpan({ language: run.language })
      if (run.language === "javascript")
        return yield* Effect.promise((signal) => runInIsolate(run.code, run.timeoutMs, signal))
      const language = run.language
      const found = yield* current
      const choice = chooseTier(settings.sandboxRuntime, found)
      if (choice.tier === null && !settings.sandboxAllowLocal) return yield* refuse(choice.refusal)
      const start = (folder: { readonly dir: string }, signal: AbortSignal): Promise<CodeReport> => {
        const common = { code: run.code, language, workspace: folder.dir, timeoutMs: run.timeoutMs, signal }
        if (choice.tier === "nova") return runNova({ ...common, protections: found })
        if (choice.tier === "docker") return runDocker({ ...common, image: settings.sandboxDockerImage })
        return runLocal(common)
      }
      return yield* Effect.scoped(
        Effect.flatMap(workspace(scope), (folder) =>
          Effect.tryPromise({
            try: (signal) => start(folder, signal),
            // The tier was there when probed and is not now (bwrap removed, the engine stopped): still closed.
            catch: (error) =>
              new SandboxRefused({
                message: `The ${choice.tier ?? "local"} run could not start: ${error instanceof Error ? error.message : String(error)}`
              })
          })
        )
      )
    })

    /** A long-lived process in nova (an MCP server); refused when nova is not available here: never unsandboxed. */
    const serve = fnNamed("sandbox.serve")(function* (served: ServedProcess) {
      const found = yield* current
      if (found.novaReason !== null || !found.namespaces) {
        return yield* refuse(
          `A plugin's MCP server runs only in the nova sandbox, which is unavailable: ${found.novaReason ?? "no user namespaces"}.`
        )
      }
      return yield* Effect.try({
        try: () => serveInNova(served, found),
        catch: (error) =>
          new SandboxRefused({
            message: `The server could not start: ${error instanceof Error ? error.message : String(error)}`
          })
      })
    })

    return { status, execute, serve } as const
  })

export class Sandbox extends Effect.Service<Sandbox>()("host/Sandbox", {
  effect: makeSandbox(probeSandbox)
}) {
  /** The sandbox over a probe answer fixed by the test (a tier present or absent), every run real. */
  static readonly Test = (probe: (now: number) => SandboxProbe) =>
    Layer.effect(
      Sandbox,
      Effect.map(
        makeSandbox(async (now) => probe(now)),
        (service) => Sandbox.make(service)
      )
    )
}

/** The sandbox's status for other features (health), over the one Sandbox the node builds. */
export const SandboxHealthLive = Layer.effect(
  SandboxHealth,
  Effect.map(Sandbox, (sandbox) => ({ status: sandbox.status }))
).pipe(Layer.provide(Sandbox.Default))
