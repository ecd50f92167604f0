/**
 * The plugin's side of the isolate boundary. This file never runs in the node: it is bundled with
 * the plugin's `main` (bundle.ts) and runs inside the plugin's isolate. It calls the plugin's
 * `activate` with a context shaped as a built-in's, keeps each skill's `run` and schemas inside,
 * and hands the host only copies of plain data: each contribution (a skill as its description and
 * published JSON Schemas), each call's output. Adapters are functions that ask the host through
 * the one reference it set (`$host`), naming the call they belong to; the host answers only for
 * a call that is still running and a capability that call holds.
 */
import type * as EffectModule from "effect/Effect"
import type * as JSONSchemaModule from "effect/JSONSchema"
import type * as ParseResultModule from "effect/ParseResult"
import type * as SchemaModule from "effect/Schema"

interface HostReference {
  readonly apply: (receiver: undefined, args: ReadonlyArray<unknown>, options: object) => Promise<HostAnswer>
}

type HostAnswer = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string }

/** Per capability, its operations: "function", or null for one the host has not (a search engine unset). */
export type AdapterShape = { readonly [kind: string]: { readonly [operation: string]: "function" | null } }

/** A contribution as it crosses to the host: plain data only. */
export interface GuestContribution {
  readonly kind: string
  readonly id: string
  readonly value: unknown
}

export type GuestAnswer =
  | { readonly ok: true; readonly output: unknown }
  | { readonly ok: false; readonly error: string }

export interface GuestScope {
  readonly beingId: string
  readonly projectId: string | null
}

interface Libraries {
  readonly plugin: { readonly activate?: unknown }
  readonly Effect: typeof EffectModule
  readonly JSONSchema: typeof JSONSchemaModule
  readonly ParseResult: typeof ParseResultModule
  readonly Schema: typeof SchemaModule
}

interface GuestSkill {
  readonly input: SchemaModule.Schema<unknown, unknown>
  readonly output: SchemaModule.Schema<unknown, unknown>
  readonly run: (input: unknown, context: unknown) => unknown
}

const messageOf = (cause: unknown) =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "unknown error"

/** Plain data only: what JSON keeps (functions, symbols and cycles are refused here, not at the boundary). */
const plainData = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null")

export const makeGuest = ({ plugin, Effect, JSONSchema, ParseResult, Schema }: Libraries) => {
  const globals = globalThis as { $host?: HostReference }
  const host = globals.$host!
  delete globals.$host

  const callHost = async (callId: string, kind: string, operation: string, args: ReadonlyArray<unknown>) => {
    const answer = await host.apply(undefined, [callId, kind, operation, args], {
      arguments: { copy: true },
      result: { promise: true, copy: true }
    })
    if (!answer.ok) throw new Error(answer.error)
    return answer.value
  }

  const adaptersFor = (callId: string, shape: AdapterShape) =>
    Object.freeze(
      Object.fromEntries(
        Object.entries(shape).map(([kind, operations]) => [
          kind,
          Object.freeze(
            Object.fromEntries(
              Object.entries(operations).map(([operation, type]) => [
                operation,
                type === null ? null : (...args: Array<unknown>) => callHost(callId, kind, operation, args)
              ])
            )
          )
        ])
      )
    )

  const skills = new Map<string, GuestSkill>()
  /** Each integration's functions (`sync`, `receive`), kept inside: the host is told only their names. */
  const integrations = new Map<string, Map<string, (request: unknown, context: unknown) => unknown>>()

  /** An integration crosses as its plain data, its functions named in `functions` (integration-functions.ts). */
  const integrationOf = (id: string, value: unknown) => {
    const given = (value ?? {}) as { readonly [key: string]: unknown }
    const functions = new Map<string, (request: unknown, context: unknown) => unknown>()
    const data: { [key: string]: unknown } = {}
    for (const [key, field] of Object.entries(given)) {
      if (typeof field === "function") functions.set(key, field as (request: unknown, context: unknown) => unknown)
      else data[key] = field
    }
    integrations.set(id, functions)
    return plainData({ ...data, functions: [...functions.keys()] })
  }

  const publish = (what: string, id: string, schema: unknown) => {
    if (!Schema.isSchema(schema)) throw new Error(`the skill "${id}" needs its ${what} made with effect/Schema`)
    return JSONSchema.make(schema)
  }

  const activate = async (callId: string, identity: unknown, shape: AdapterShape) => {
    if (typeof plugin.activate !== "function") throw new Error("main exports no activate function")
    const contributed: Array<GuestContribution> = []
    let open = true
    const contribute = (kind: string, id: string, value: unknown) => {
      if (!open) throw new Error(`contribute("${kind}", "${id}") was called after activate finished`)
      if (kind === "integration") {
        contributed.push({ kind, id, value: integrationOf(id, value) })
        return
      }
      if (kind !== "skill") {
        contributed.push({ kind, id, value: plainData(value) })
        return
      }
      const skill = (value ?? {}) as { readonly [key: string]: unknown }
      if (typeof skill.run !== "function") throw new Error(`the skill "${id}" has no run function`)
      const input = publish("input", id, skill.input)
      const output = publish("output", id, skill.output)
      skills.set(id, {
        input: skill.input as GuestSkill["input"],
        output: skill.output as GuestSkill["output"],
        run: skill.run as GuestSkill["run"]
      })
      contributed.push({
        kind,
        id,
        value: plainData({ description: skill.description, timeoutMs: skill.timeoutMs, input, output })
      })
    }
    try {
      await plugin.activate(Object.freeze({ plugin: identity, adapters: adaptersFor(callId, shape), contribute }))
    } finally {
      open = false
    }
    return contributed
  }

  const issues = (error: ParseResultModule.ParseError) =>
    ParseResult.ArrayFormatter.formatErrorSync(error)
      .map((issue) => (issue.path.length === 0 ? issue.message : `${issue.path.join(".")}: ${issue.message}`))
      .join("; ")

  /** One skill call, decoded and encoded with the plugin's own schemas; every failure is an answer. */
  const invoke = async (
    callId: string,
    id: string,
    name: string,
    raw: unknown,
    scope: GuestScope,
    shape: AdapterShape
  ): Promise<GuestAnswer> => {
    const skill = skills.get(id)
    if (skill === undefined) return { ok: false, error: `${name} is not a skill of this plugin` }
    const input = Schema.decodeUnknownEither(skill.input)(raw, { errors: "all", onExcessProperty: "error" })
    if (input._tag === "Left") return { ok: false, error: `The input does not fit ${name}: ${issues(input.left)}` }
    const context = Object.freeze({
      beingId: scope.beingId,
      projectId: scope.projectId,
      files: undefined,
      adapters: adaptersFor(callId, shape),
      trace: (event: unknown) => {
        callHost(callId, "trace", "emit", [plainData(event)]).catch(() => undefined)
      }
    })
    try {
      const running = skill.run(input.right, context)
      const ran = Effect.isEffect(running)
        ? await Effect.runPromise(Effect.either(running as EffectModule.Effect<unknown, unknown>))
        : { _tag: "Right" as const, right: await running }
      if (ran._tag === "Left") return { ok: false, error: messageOf(ran.left) }
      const output = Schema.encodeUnknownEither(skill.output)(ran.right, { errors: "all" })
      if (output._tag === "Left")
        return {
          ok: false,
          error: `${name} answered with an output that does not fit its schema: ${issues(output.left)}`
        }
      return { ok: true, output: plainData(output.right) }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
  }

  /**
   * One call of an integration's function (a provider's sync or receive): its answer crosses as plain data, unchecked
   * here.
   */
  const integrate = async (
    callId: string,
    id: string,
    fn: string,
    request: unknown,
    scope: GuestScope,
    shape: AdapterShape
  ): Promise<GuestAnswer> => {
    const run = integrations.get(id)?.get(fn)
    if (run === undefined) return { ok: false, error: `the integration "${id}" has no ${fn} function` }
    const adapters = adaptersFor(callId, shape) as { readonly [kind: string]: unknown }
    // An oauth2 provider's authorised fetch crosses as the `auth` adapter; the plugin reads it as `context.auth`.
    const context = Object.freeze({
      beingId: scope.beingId,
      adapters,
      ...(adapters.auth === undefined ? {} : { auth: adapters.auth })
    })
    try {
      const running = run(plainData(request), context)
      const ran = Effect.isEffect(running)
        ? await Effect.runPromise(Effect.either(running as EffectModule.Effect<unknown, unknown>))
        : { _tag: "Right" as const, right: await running }
      if (ran._tag === "Left") return { ok: false, error: messageOf(ran.left) }
      return { ok: true, output: plainData(ran.right) }
    } catch (error) {
      return { ok: false, error: messageOf(error) }
    }
  }

  return { activate, invoke, integrate }
}
