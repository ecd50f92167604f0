/**
 * The `signals` capability as plugins get it: a `raise` that puts the plugin's
 * input through the same schema and the same Signals path as every other raiser. A plugin's
 * signal lands on the owner's desktop (a plugin serves the node, and the node is the owner's)
 * with `plugin:<plugin id>` as its source, so the desktop can say who raised it.
 *
 * A built-in's adapter built for a call acts for that call instead (rule 4 of the first
 * document's skills): the signal lands on the calling being's desktop (the person the call works
 * for, the project's owner inside a project), and inside a project its source is
 * `studio:<project id>`. Third-party plugins never get either: a source a plugin could forge
 * would let it pass for the studio.
 */
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import type { SignalsAdapter } from "../../kernel/extensions/adapters.ts"
import { refused } from "../../kernel/extensions/capability-refused.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import { callTarget } from "../desktop/contract/signal-sources.ts"
import { Signals } from "../desktop/contract/signals.ts"

const decodeInput = Schema.decodeUnknown(SignalInput)

/** `builtinIds`: the plugins whose adapters may act for the call's being and project. */
export const signalsAdapterFactory = (builtinIds: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const signals = yield* Signals
    return (plugin: PluginIdentity, scope: CallScope): SignalsAdapter => {
      const { source, beingId } = callTarget(builtinIds, plugin, scope)
      const raise = (input: SignalInput) =>
        beingId === null
          ? signals.raiseForOwner(input, source, "proactive")
          : signals.raise(beingId, input, source, "proactive")

      return {
        raise: (input) =>
          decodeInput(input).pipe(
            Effect.mapError((error) =>
              refused(`signals.raise refused the signal: ${ParseResult.TreeFormatter.formatErrorSync(error)}`)
            ),
            Effect.flatMap((decoded) =>
              Effect.mapError(raise(decoded), (error) => refused(`signals.raise failed: ${error.message}`))
            ),
            Effect.map((raised) => ({ signalId: raised.signal.id, delivered: raised.delivered }))
          )
      }
    }
  })
