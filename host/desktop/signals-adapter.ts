/**
 * The `signals` capability as plugins get it: a promise-returning `raise` that puts the plugin's
 * input through the same schema and the same Signals path as every other raiser. The signal
 * lands on the owner's desktop (a plugin serves the node, and the node is the owner's) with
 * `plugin:<plugin id>` as its source, so the desktop can say who raised it.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Runtime from "effect/Runtime"
import * as Schema from "effect/Schema"
import { SignalInput } from "../../actors/being/signal.ts"
import type { PluginIdentity, SignalsAdapter } from "../../kernel/extensions/context.ts"
import { Signals } from "./signals.ts"

const decodeInput = Schema.decodeUnknownEither(SignalInput)

export const pluginSource = (plugin: PluginIdentity): string => `plugin:${plugin.id}`

export const signalsAdapterFactory = Effect.gen(function* () {
  const signals = yield* Signals
  const runPromise = Runtime.runPromise(yield* Effect.runtime<never>())

  return (plugin: PluginIdentity): SignalsAdapter => ({
    raise: async (input) => {
      const decoded = decodeInput(input)
      if (Either.isLeft(decoded)) {
        throw new Error(`signals.raise refused the signal: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`)
      }
      const outcome = await runPromise(Effect.either(signals.raiseForOwner(decoded.right, pluginSource(plugin))))
      if (Either.isLeft(outcome)) throw new Error(`signals.raise failed: ${outcome.left.message}`)
      return { signalId: outcome.right.signal.id, delivered: outcome.right.delivered }
    }
  })
})
