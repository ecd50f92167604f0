/**
 * The port through which a being's own connection takes precedence over the node's setting
 * (COVERAGE: email.read, chat_a.send and chat_b.send prefer the calling being's connection). The
 * node binds it to the beings' own connections (being-connections.ts); `none` serves a test
 * that wants the node's own account for every call.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export type { ConnectedProvider } from "../twin/contract/connections.ts"
import type { ConnectedProvider } from "../twin/contract/connections.ts"

export class BeingConnections extends Context.Tag("integrations/BeingConnections")<
  BeingConnections,
  {
    /** The being's own credential for the provider, decrypted, when it connected one that works. */
    readonly credential: (
      beingId: string,
      provider: ConnectedProvider
    ) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
  }
>() {
  /** No being has a connection yet: the node's settings answer every call. */
  static readonly none = Layer.succeed(BeingConnections, { credential: () => Effect.succeedNone })
}
