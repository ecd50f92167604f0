/**
 * The bridge's core (its contract and method table: ./contract/bridge.ts): one allowlisted call
 * for one caller, within the capabilities granted to it. The order of refusals is fixed so a
 * caller learns nothing it may not know: a method outside the allowlist (400 `unknown_method`),
 * then one whose capability is not granted (403 `not_granted`), then args too large (413) or of
 * the wrong shape (400). Each method acts for `caller.beingId` only and names `caller.source`
 * as the source of what it raises; storage is the caller's own scope for that being.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { CapabilityKind } from "../../../kernel/contract/capabilities.ts"
import { KeyValueStorage } from "../../../kernel/extensions/key-value-storage.ts"
import { contributionName } from "../../../kernel/extensions/registry.ts"
import { Skills } from "../../../kernel/extensions/skills.ts"
import { TwinMemories } from "../../twin/contract/memories.ts"
import { Signals } from "../../desktop/contract/signals.ts"
import {
  BridgeArgsInvalid,
  BridgeArgsTooLarge,
  BridgeMethodUnknown,
  BridgeSkillUnknown,
  CapabilityNotGranted
} from "../contract/errors.ts"
import {
  Bridge,
  bridgeMethodNames,
  bridgeMethods,
  type BridgeCaller,
  type BridgeMethod,
  maxBridgeArgsBytes
} from "./contract/bridge.ts"
import { spanNamed } from "../../../kernel/spans.ts"

const isMethod = (method: string): method is BridgeMethod => Object.hasOwn(bridgeMethods, method)

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8")

const notGranted = (method: string, missing: ReadonlyArray<CapabilityKind>) =>
  new CapabilityNotGranted({
    message: `${method} needs the ${missing.join(", ")} capability, which this caller was not granted.`,
    details: { method, missing }
  })

const badArgs = (method: string, error: ParseResult.ParseError) =>
  new BridgeArgsInvalid({
    message: `The args do not fit ${method}: ${ParseResult.TreeFormatter.formatErrorSync(error).slice(0, 200)}`,
    details: { method, issues: ParseResult.ArrayFormatter.formatErrorSync(error).slice(0, 10) }
  })

const make = Effect.gen(function* () {
  const storage = yield* KeyValueStorage
  const signals = yield* Signals
  const memories = yield* TwinMemories
  const skills = yield* Skills

  const decode = <A, I>(schema: Schema.Schema<A, I>, method: BridgeMethod, args: unknown) =>
    Schema.decodeUnknown(schema)(args, { errors: "all", onExcessProperty: "error" }).pipe(
      Effect.mapError((error) => badArgs(method, error))
    )

  const owner = (caller: BridgeCaller) => ({ scope: caller.storageScope, beingId: caller.beingId })

  /** A skill of the caller's own plugin, run only when every capability it uses is granted to the caller. */
  const invokeSkill = (caller: BridgeCaller, granted: ReadonlyArray<CapabilityKind>, skill: string, input: unknown) =>
    Effect.gen(function* () {
      const name = caller.skillNamespace === null ? null : contributionName(caller.skillNamespace, skill)
      const uses = name === null ? undefined : skills.uses(name)
      if (name === null || uses === undefined) {
        return yield* new BridgeSkillUnknown({
          message: `This caller has no skill "${skill}".`,
          details: { skill }
        })
      }
      const missing = uses.filter((kind) => !granted.includes(kind))
      if (missing.length > 0) return yield* notGranted(`skills.invoke of ${name}`, missing)
      // Not approved: a module's code is not a person confirming this exact call, so a world-acting skill asks its
      // owner.
      const outcome = yield* skills.invoke({ name, input, beingId: caller.beingId, approved: false })
      return outcome.ok ? { ok: true, output: outcome.output } : { ok: false, error: outcome.error }
    })

  const run = (caller: BridgeCaller, granted: ReadonlyArray<CapabilityKind>, method: BridgeMethod, args: unknown) => {
    switch (method) {
      case "storage.get":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ key }) =>
          Effect.map(storage.get(owner(caller), key), (value) => ({ key, value }))
        )
      case "storage.set":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ key, value }) =>
          storage.set(owner(caller), key, value)
        )
      case "storage.list":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ prefix }) =>
          Effect.map(storage.list(owner(caller), prefix), (keys) => ({ keys }))
        )
      case "storage.delete":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ key }) =>
          Effect.map(storage.remove(owner(caller), key), (deleted) => ({ deleted }))
        )
      case "signals.raise":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), (input) =>
          Effect.map(signals.raise(caller.beingId, input, caller.source, "proactive"), (raised) => ({
            signalId: raised.signal.id,
            delivered: raised.delivered
          }))
        )
      case "memory.search":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ query, limit }) =>
          Effect.map(memories.search(caller.beingId, { q: query, limit }), (found) => ({ memories: found.memories }))
        )
      case "skills.invoke":
        return Effect.flatMap(decode(bridgeMethods[method].args, method, args), ({ skill, input }) =>
          invokeSkill(caller, granted, skill, input)
        )
    }
  }

  return Bridge.of({
    call: (caller, granted, method, args) =>
      Effect.gen(function* () {
        if (!isMethod(method)) {
          return yield* new BridgeMethodUnknown({
            message: `The bridge has no method "${method.slice(0, 64)}".`,
            details: { methods: bridgeMethodNames }
          })
        }
        const capability = bridgeMethods[method].capability
        if (capability !== null && !granted.includes(capability)) return yield* notGranted(method, [capability])
        if (byteLength(args) > maxBridgeArgsBytes) {
          return yield* new BridgeArgsTooLarge({
            message: `A bridge call's args may be at most ${maxBridgeArgsBytes / 1024} KB as JSON.`,
            details: { limitBytes: maxBridgeArgsBytes }
          })
        }
        return yield* run(caller, granted, method, args)
      }).pipe(spanNamed("bridge.call", { attributes: { method } }))
  })
})

/**
 * The bridge over the node's signals, memories, skills and its own storage; the skills runtime and the twin come from
 * the node.
 */
export const BridgeLive = Layer.effect(Bridge, make).pipe(Layer.provide(KeyValueStorage.Default))
