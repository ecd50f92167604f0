/**
 * The skill runtime: every call of every skill, built-in or plugin, goes through `invoke`, which
 * validates the input against the skill's schema, puts a world-acting skill through the approval
 * gate, runs it under a time limit with its call context, and validates the output. A skill's
 * own failure is an answer (`ok: false` with a plain error), never a crash; only an unknown name
 * is an error, since there is no skill to answer for.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { UnknownSkill } from "../contract/skill-errors.ts"
import { Settings } from "../settings.ts"
import { tracedAs } from "../spans.ts"
import { fileRootFor } from "./file-root.ts"
import { checkSkill, decodeSkillInput, formatIssues, registeredSkill } from "./skill-check.ts"
import { LoadedContributions, type Contribution } from "./registry.ts"
import {
  defaultSkillTimeoutMs,
  publishedJsonSchema,
  SkillFailure,
  type SkillRunContext,
  type SkillTraceEvent
} from "./skill.ts"
import type { InvokeSkillResult, SkillDef } from "../contract/skills.ts"
import type { CapabilityKind } from "../contract/capabilities.ts"

export interface SkillCall {
  /** `<namespace>.<id>` */
  readonly name: string
  /** As the caller sent it; validated here. */
  readonly input: unknown
  /** The calling being: whose behalf, whose uploads folder outside a project. */
  readonly beingId: string
  /** The project the call belongs to; its workspace is then the file root. Default null. */
  readonly projectId?: string | null
  /**
   * True only when a human asked for this exact call: the skills feature's invoke route, or 'Do it'
   * on the approval signal. Every other caller (an agent's tool loop, Muse) passes false.
   */
  readonly approved: boolean
  /** Where the skill's trace events go (the running project's trace); default nowhere. */
  readonly trace?: (event: SkillTraceEvent) => void
}

/** What the approval gate hands on when it refuses an unapproved world-acting call. */
export interface ApprovalRequest {
  readonly skill: string
  /** Exactly as the caller attempted it, so approving runs exactly that. */
  readonly input: unknown
  readonly beingId: string
  readonly projectId: string | null
  /** The plugin's own words for why it acts on the world (its world-acting capability's reason). */
  readonly reason: string
}

export interface ApprovalAsked {
  /** The decision signal raised on the owner's desktop; null when none could be raised. */
  readonly signalId: string | null
  /** False when the signal is stored but held off the desktop, or when none was raised. */
  readonly delivered: boolean
  /** Why no signal was raised, when none was. */
  readonly note?: string
}

/** Asks the owner to approve one refused call; implemented by the host over its desktop signals. */
export class SkillApprovals extends Context.Tag("kernel/SkillApprovals")<
  SkillApprovals,
  { readonly ask: (request: ApprovalRequest) => Effect.Effect<ApprovalAsked> }
>() {}

export type SkillOutcome =
  | { readonly ok: true; readonly output: unknown; readonly durationMs: number }
  | {
      readonly ok: false
      readonly error: string
      readonly durationMs: number
      /** Present when the call was refused for want of approval: the step waits, the caller carries on. */
      readonly approval?: ApprovalAsked & { readonly status: "waiting" }
    }

/** The wire answer `{ ok, output?, error?, durationMs }`: nothing else of an outcome leaves the node. */
export const invokeResult = (outcome: SkillOutcome): InvokeSkillResult =>
  outcome.ok
    ? { ok: true, output: outcome.output, durationMs: outcome.durationMs }
    : { ok: false, error: outcome.error, durationMs: outcome.durationMs }

type Attempt =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: string; readonly approval?: ApprovalAsked & { readonly status: "waiting" } }

export interface SkillsShape {
  /** Every registered skill with its JSON Schemas, in registration order. */
  readonly list: Effect.Effect<ReadonlyArray<SkillDef>>
  readonly invoke: (call: SkillCall) => Effect.Effect<SkillOutcome, UnknownSkill>
  /** Why `input` would be refused by the skill's input schema (null: it fits), or UnknownSkill; runs nothing. */
  readonly check: (name: string, input: unknown) => Effect.Effect<string | null, UnknownSkill>
  /**
   * Whether a skill may spend model budget: its extension uses the `llm` capability, the only
   * way a skill reaches a model. False for a name nothing registered.
   */
  readonly spendsModels: (name: string) => boolean
  /** The capabilities a registered skill uses (undefined: no such skill), for callers that hand it only some. */
  readonly uses: (name: string) => ReadonlyArray<CapabilityKind> | undefined
}

const noTrace = () => {}

const worldActing = (skill: Contribution<"skill">) => skill.declaration.uses.includes("world-acting")

const messageOf = (cause: unknown) =>
  cause instanceof SkillFailure || cause instanceof Error
    ? cause.message
    : typeof cause === "string"
      ? cause
      : "unknown error"

const waitingMessage = (name: string, asked: ApprovalAsked) =>
  asked.signalId === null
    ? `${name} acts on the world and needs the owner's approval, but none could be asked (${asked.note ?? "no signal was raised"}); it did not run.`
    : `${name} acts on the world, so it waits for the owner's approval: a decision is on their desktop. ` +
      `It runs if they answer "Do it"; carry on with what you can meanwhile.`

const make = Effect.gen(function* () {
  // The registry, not the host: the host's adapters reach features that read skills (registry.ts).
  const host = yield* LoadedContributions
  const settings = yield* Settings
  const approvals = yield* SkillApprovals
  const published = new WeakMap<Contribution<"skill">, SkillDef>()

  const describe = (skill: Contribution<"skill">): SkillDef => {
    const known = published.get(skill)
    if (known !== undefined) return known
    const def: SkillDef = {
      name: skill.name,
      description: skill.value.description,
      family: skill.context.plugin.namespace,
      worldActing: worldActing(skill),
      inputSchema: publishedJsonSchema(skill.value.input),
      outputSchema: publishedJsonSchema(skill.value.output),
      pluginId: skill.pluginId
    }
    published.set(skill, def)
    return def
  }

  const reasonOf = (skill: Contribution<"skill">) =>
    Effect.map(
      host.installed,
      (plugins) =>
        plugins
          .find((plugin) => plugin.id === skill.pluginId)
          ?.capabilities.find((capability) => capability.kind === "world-acting")?.reason ?? ""
    )

  /** Runs the skill's own code: its errors, defects and overruns all become a SkillFailure. */
  const execute = (skill: Contribution<"skill">, input: unknown, call: SkillCall, projectId: string | null) =>
    Effect.suspend(() => {
      const controller = new AbortController()
      const timeoutMs = skill.value.timeoutMs ?? defaultSkillTimeoutMs
      return Effect.try({
        try: (): SkillRunContext => ({
          beingId: call.beingId,
          projectId,
          files: skill.declaration.uses.includes("filesystem")
            ? fileRootFor(settings, call.beingId, projectId)
            : undefined,
          signal: controller.signal,
          trace: call.trace ?? noTrace,
          adapters: skill.context.adaptersFor({ beingId: call.beingId, projectId, contribution: skill.name })
        }),
        catch: (cause) => new SkillFailure({ message: messageOf(cause) })
      }).pipe(
        Effect.flatMap((context) => {
          const running = skill.value.run(input, context)
          return Effect.isEffect(running)
            ? Effect.mapError(running, (cause) => new SkillFailure({ message: messageOf(cause) }))
            : Effect.tryPromise({
                try: () => Promise.resolve(running),
                catch: (cause) => new SkillFailure({ message: messageOf(cause) })
              })
        }),
        Effect.catchAllDefect((defect) =>
          Effect.zipRight(
            Effect.logWarning(`skill ${skill.name} crashed`, Cause.die(defect)),
            Effect.fail(new SkillFailure({ message: `${skill.name} crashed: ${messageOf(defect)}` }))
          )
        ),
        Effect.timeoutFail({
          duration: timeoutMs,
          onTimeout: () =>
            new SkillFailure({ message: `${skill.name} did not finish within ${timeoutMs / 1000} seconds.` })
        }),
        // Whatever the skill started and still waits on is told to stop.
        Effect.ensuring(Effect.sync(() => controller.abort()))
      )
    })

  const attempt = (skill: Contribution<"skill">, call: SkillCall): Effect.Effect<Attempt> =>
    Effect.gen(function* () {
      const projectId = call.projectId ?? null
      const input = decodeSkillInput(skill, call.input)
      if (Either.isLeft(input)) return { ok: false, error: input.left }

      if (worldActing(skill) && !call.approved) {
        const reason = yield* reasonOf(skill)
        const asked = yield* approvals.ask({
          skill: skill.name,
          input: call.input,
          beingId: call.beingId,
          projectId,
          reason
        })
        return { ok: false, error: waitingMessage(skill.name, asked), approval: { status: "waiting", ...asked } }
      }

      const ran = yield* Effect.either(execute(skill, input.right, call, projectId))
      if (Either.isLeft(ran)) return { ok: false, error: ran.left.message }
      const output = Schema.encodeUnknownEither(skill.value.output)(ran.right, { errors: "all" })
      if (Either.isLeft(output)) {
        return {
          ok: false,
          error: `${skill.name} answered with an output that does not fit its schema: ${formatIssues(output.left)}`
        }
      }
      return { ok: true, output: output.right }
    })

  const registered = (name: string) => registeredSkill(host.registries, name)

  const invoke = (call: SkillCall) =>
    Effect.gen(function* () {
      const skill = yield* registered(call.name)
      const started = yield* Clock.currentTimeMillis
      const result = yield* attempt(skill, call)
      const durationMs = (yield* Clock.currentTimeMillis) - started
      return { ...result, durationMs } satisfies SkillOutcome
    }).pipe((self) => tracedAs(self, "skills.invoke", { attributes: { skill: call.name, approved: call.approved } }))

  return {
    list: Effect.sync(() => host.registries.skill.list().map(describe)),
    invoke,
    check: checkSkill(host.registries),
    spendsModels: (name) => host.registries.skill.get(name)?.declaration.uses.includes("llm") ?? false,
    uses: (name) => host.registries.skill.get(name)?.declaration.uses
  } satisfies SkillsShape
})

export class Skills extends Context.Tag("kernel/Skills")<Skills, SkillsShape>() {
  static readonly layer = Layer.effect(Skills, make)
}
