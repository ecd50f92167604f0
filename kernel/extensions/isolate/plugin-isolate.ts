/**
 * A third-party plugin's server code in an isolated-vm isolate of its own: its bundled `main`
 * (bundle.ts) runs there with no process, require, file system, timers or network, only the
 * context guest.ts builds. What it may do beyond computing goes through one host function,
 * answering for a running call with that call's adapters (the granted ones, narrowed to the
 * extension's `uses`), so an absent grant is an absent adapter inside as outside.
 *
 * Everything crosses copied, never as a reference to a host object. The host function never
 * rejects (a rejecting host function raises an unhandledRejection in the host): it answers
 * `{ ok, value | error }`. The isolate's own timeout stops counting while it awaits the host, so
 * a host-side watchdog stops it at each call's deadline; a heap past its limit disposes itself.
 * Either way the plugin is stopped and reported (`stopped`), and the node goes on.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as ParseResult from "effect/ParseResult"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { randomUUID } from "node:crypto"
import type ivm from "isolated-vm"
import type { ActivationFailed } from "../../contract/plugin-errors.ts"
import type { PluginManifest } from "../../contract/manifest.ts"
import { compileJsonSchema, type SchemaCheck } from "../../json-schema.ts"
import { activationFailed } from "../activation.ts"
import type { GrantedAdapters } from "../adapters.ts"
import type { Activate, PluginContext } from "../context.ts"
import { contributionName } from "../registry.ts"
import {
  defaultSkillTimeoutMs,
  PublishedJsonSchema,
  traceKinds,
  type SkillContribution,
  type SkillRunContext,
  type SkillTraceEvent,
  type TraceKind
} from "../skill.ts"
import {
  integrationFunctionNames,
  integrationTimeoutMs,
  type IntegrationCallContext,
  type IntegrationFunctionName
} from "../integration-functions.ts"
import { guestGlobal } from "./bundle.ts"
import { cachedBundle } from "./bundle-cache.ts"
import type { AdapterShape, GuestAnswer, GuestContribution } from "./guest.ts"
import { isolatePrelude } from "./prelude.ts"
import { isolateErrorText, isolateFault, isolateLimits } from "./limits.ts"
import { lazyModule } from "../../lazy-module.ts"
import { spanNamed } from "../../spans.ts"

/** isolated-vm at first use: a node that runs no plugin and no JavaScript sandbox never loads the addon. */
const isolatedVm = lazyModule<typeof ivm>("isolated-vm")

/** Activation's limit, as for a built-in (activation.ts). */
const activationMs = 10_000

export interface PluginIsolate {
  /** Runs the plugin's own activate inside, and contributes what it hands over. */
  readonly activate: Activate
  readonly dispose: () => void
}

interface RunningCall {
  readonly adapters: GrantedAdapters
  readonly trace: (event: SkillTraceEvent) => void
}

type HostAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

/**
 * The node's one Promise façade over its adapters: a built-in `yield*`s an adapter's Effect, a
 * plugin in an isolate awaits a Promise, so the Effect runs here, and a refusal (or a defect) is
 * thrown as an Error with its message for answerGuest to answer `{ ok: false, error }`. It runs
 * in the runtime that loaded the plugin, so its logs and spans go where the node's go.
 */
const settled = async (runtime: Runtime.Runtime<never>, answer: unknown): Promise<unknown> => {
  if (!Effect.isEffect(answer)) return answer
  const exit = await Runtime.runPromiseExit(runtime)(answer as Effect.Effect<unknown, unknown>)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

const shapeOf = (adapters: GrantedAdapters): AdapterShape =>
  Object.fromEntries(
    Object.entries(adapters).map(([kind, adapter]) => [
      kind,
      Object.fromEntries(
        Object.entries(adapter as object).flatMap(
          ([operation, value]): Array<[string, "function" | null]> =>
            typeof value === "function" ? [[operation, "function"]] : value === null ? [[operation, null]] : []
        )
      )
    ])
  )

/**
 * The host's view of a schema that lives in the isolate: the plugin's JSON Schema, published as
 * it is and checked with ajv on the way in, so a malformed call is refused before it reaches the
 * approval gate or the isolate. The plugin's own schema then decodes the input and encodes the
 * output inside (guest.ts); the output passes the host as the plugin encoded it.
 */
export const publishedSchema = (jsonSchema: unknown, check: SchemaCheck | null) =>
  Schema.declare(
    [],
    {
      decode: () => (input, _options, ast) => {
        const problems = check === null ? [] : check(input)
        return problems.length === 0
          ? ParseResult.succeed(input)
          : ParseResult.fail(new ParseResult.Type(ast, input, problems.join("; ")))
      },
      encode: () => (output) => ParseResult.succeed(output)
    },
    { [PublishedJsonSchema]: jsonSchema }
  )

const faultReason = (fault: "timeout" | "memory" | "disposed", what: string) =>
  fault === "memory"
    ? `it used more than ${isolateLimits.memoryMb} MB of memory during ${what}`
    : fault === "timeout"
      ? `${what} ran past its time limit (an endless loop?)`
      : `it was stopped during ${what}`

/**
 * Bundles the plugin's main (or takes the bundle cached at `bundleCache` while its files are unchanged) and starts its
 * isolate; `stopped` is told (once) when the isolate is
 * stopped for looping, exhausting its memory or overrunning a deadline, never for a plain throw.
 */
export const loadIsolated = (
  manifest: PluginManifest,
  dir: string,
  bundleCache: string,
  stopped: (reason: string) => void
): Effect.Effect<PluginIsolate, ActivationFailed> =>
  Effect.runtime<never>().pipe(
    Effect.flatMap((runtime) =>
      Effect.tryPromise({
        try: () => startIsolate(manifest, dir, bundleCache, stopped, runtime),
        catch: (cause) => activationFailed(manifest, messageOf(cause))
      })
    ),
    spanNamed("plugins.loadIsolated", { attributes: { id: manifest.id } })
  )

const startIsolate = async (
  manifest: PluginManifest,
  dir: string,
  bundleCache: string,
  stopped: (reason: string) => void,
  runtime: Runtime.Runtime<never>
): Promise<PluginIsolate> => {
  if (manifest.main === null) throw new Error("it has no main to activate")
  const code = await cachedBundle(dir, manifest.main, bundleCache).catch((error) => {
    throw new Error(`bundling ${manifest.main} failed: ${messageOf(error)}`)
  })
  const isolate = new (isolatedVm().Isolate)({ memoryLimit: isolateLimits.memoryMb })
  const calls = new Map<string, RunningCall>()
  let stoppedFor: string | null = null
  /** Adapter calls the host is answering for this plugin: bounded, so a plugin cannot flood the node. */
  let pending = 0

  const dispose = () => {
    calls.clear()
    if (!isolate.isDisposed) isolate.dispose()
  }
  const stop = (reason: string) => {
    if (stoppedFor !== null) return
    stoppedFor = reason
    dispose()
    stopped(reason)
  }

  /** The one way out of the isolate. Never rejects; answers only for a running call and what it holds. */
  const answerGuest = async (
    callId: unknown,
    kind: unknown,
    operation: unknown,
    args: unknown
  ): Promise<HostAnswer> => {
    if (pending >= isolateLimits.pendingHostCalls) {
      return {
        ok: false,
        error: `More than ${isolateLimits.pendingHostCalls} adapter calls at once: wait for some to finish.`
      }
    }
    pending += 1
    try {
      const call = typeof callId === "string" ? calls.get(callId) : undefined
      if (call === undefined)
        return { ok: false, error: "This call has ended: an adapter acts only while its call runs." }
      if (kind === "trace") {
        const event = (Array.isArray(args) ? args[0] : undefined) as Partial<SkillTraceEvent> | undefined
        if (!traceKinds.includes(event?.kind as TraceKind) || typeof event?.text !== "string") {
          return { ok: false, error: `A trace event is { kind: ${traceKinds.join(" | ")}, text, data? }.` }
        }
        call.trace(event as SkillTraceEvent)
        return { ok: true, value: null }
      }
      const adapter = call.adapters[kind as keyof GrantedAdapters] as
        | { readonly [operation: string]: unknown }
        | undefined
      const method =
        adapter !== undefined && typeof operation === "string" && Object.hasOwn(adapter, operation)
          ? adapter[operation]
          : undefined
      if (typeof method !== "function") {
        return {
          ok: false,
          error: `${String(kind)}.${String(operation)} is not among the capabilities this call holds.`
        }
      }
      const value = await settled(runtime, method.apply(adapter, Array.isArray(args) ? args : []))
      // Copied here, so a value that cannot cross (a function, a host object) is refused as an answer.
      return { ok: true, value: structuredClone(value) }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    } finally {
      pending -= 1
    }
  }

  try {
    const context = await isolate.createContext()
    await context.eval(isolatePrelude)
    await context.global.set("$host", new (isolatedVm().Reference)(answerGuest))
    const script = await isolate.compileScript(code, { filename: `${manifest.namespace}.js` })
    await script.run(context, { timeout: isolateLimits.loadMs })
    const guestActivate = await context.eval(`${guestGlobal}.guest.activate`, { reference: true })
    const guestInvoke = await context.eval(`${guestGlobal}.guest.invoke`, { reference: true })
    const guestIntegrate = await context.eval(`${guestGlobal}.guest.integrate`, { reference: true })
    // The plugin's own code need not reach the guest runtime's entry points: only the host calls them.
    await context.eval(`${guestGlobal} = undefined`)

    /** Calls into the isolate under a deadline; the watchdog stops the plugin if it has not settled by then. */
    const callGuest = async (
      ref: ivm.Reference,
      args: ReadonlyArray<unknown>,
      call: RunningCall,
      timeoutMs: number,
      what: string
    ) => {
      if (stoppedFor !== null) throw new Error(`${manifest.id} was stopped: ${stoppedFor}`)
      const callId = randomUUID()
      calls.set(callId, call)
      const watchdog = setTimeout(() => stop(faultReason("timeout", what)), timeoutMs + isolateLimits.graceMs)
      try {
        return (await ref.apply(undefined, [callId, ...args], {
          arguments: { copy: true },
          result: { promise: true, copy: true },
          timeout: timeoutMs
        })) as unknown
      } catch (error) {
        const text = isolateErrorText(error)
        const fault = isolateFault(text)
        if (fault === null) throw new Error(messageOf(error))
        stop(stoppedFor ?? faultReason(fault, what))
        throw new Error(`${manifest.id} was stopped: ${stoppedFor ?? faultReason(fault, what)}`)
      } finally {
        clearTimeout(watchdog)
        calls.delete(callId)
      }
    }

    const skillOf = async (id: string, value: { readonly [key: string]: unknown }): Promise<SkillContribution> => {
      const name = contributionName(manifest.namespace, id)
      const timeoutMs = typeof value.timeoutMs === "number" ? value.timeoutMs : defaultSkillTimeoutMs
      return {
        description: value.description as string,
        ...(value.timeoutMs === undefined ? {} : { timeoutMs: value.timeoutMs as number }),
        input: publishedSchema(
          value.input,
          await compileJsonSchema(value.input as { readonly [key: string]: unknown })
        ),
        output: publishedSchema(value.output, null),
        run: async (input: unknown, run: SkillRunContext) => {
          const scope = { beingId: run.beingId, projectId: run.projectId }
          const answer = (await callGuest(
            guestInvoke,
            [id, name, input, scope, shapeOf(run.adapters)],
            { adapters: run.adapters, trace: run.trace },
            timeoutMs,
            `a call of ${name}`
          )) as GuestAnswer
          if (!answer.ok) throw new Error(answer.error)
          return answer.output
        }
      }
    }

    /**
     * An integration as the host holds it: its plain fields, and a host function calling into the isolate for each
     * function it named.
     */
    const integrationOf = (id: string, value: { readonly [key: string]: unknown }) => {
      const name = contributionName(manifest.namespace, id)
      const { functions, ...fields } = value
      const named = Array.isArray(functions)
        ? functions.filter((fn): fn is IntegrationFunctionName => integrationFunctionNames.includes(fn))
        : []
      return {
        ...fields,
        ...Object.fromEntries(
          named.map((fn) => [
            fn,
            async (request: unknown, call: IntegrationCallContext) => {
              const answer = (await callGuest(
                guestIntegrate,
                [id, fn, request, { beingId: call.beingId, projectId: null }, shapeOf(call.adapters)],
                { adapters: call.adapters, trace: () => undefined },
                integrationTimeoutMs,
                `the ${fn} of ${name}`
              )) as GuestAnswer
              if (!answer.ok) throw new Error(answer.error)
              return answer.output
            }
          ])
        )
      }
    }

    const activate = async (plugin: PluginContext) => {
      const contributed = (await callGuest(
        guestActivate,
        [plugin.plugin, shapeOf(plugin.adapters)],
        { adapters: plugin.adapters, trace: () => undefined },
        activationMs,
        "activate"
      )) as ReadonlyArray<GuestContribution>
      for (const { kind, id, value } of contributed) {
        const handed =
          kind === "skill"
            ? await skillOf(id, value as { readonly [key: string]: unknown })
            : kind === "integration"
              ? integrationOf(id, value as { readonly [key: string]: unknown })
              : value
        plugin.contribute(kind as never, id, handed as never)
      }
    }

    return { activate, dispose }
  } catch (error) {
    dispose()
    throw new Error(isolateErrorText(error))
  }
}
