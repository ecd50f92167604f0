/**
 * The twin's port for the providers it syncs through another feature (mail_a's mailbox, bound by
 * comms): in the contract, so the feature that speaks the service's protocol binds it without
 * reaching into the twin.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { TwinActivityKind } from "./records.ts"

/**
 * A provider whose sync reads a service for the being through its own connection (mail_a's
 * mailbox): the host binds each, since it speaks the service's protocol with the connection's
 * secret, which the twin never holds. `pull` answers what the service handed over, unchecked: the
 * twin validates it against ProviderSyncResult before anything is remembered.
 */
export interface RemoteSync {
  readonly provider: string
  readonly title: string
  readonly icon: string
  /** The activity a pass writes: `read_email` for a mailbox. */
  readonly activity: TwinActivityKind
  /** The node has what the provider needs (an OAuth client, say); else `unconfigured` says what the owner sets. */
  readonly configured: boolean
  readonly unconfigured: string
  /** What a being that has not connected the provider yet is told to do. */
  readonly connect: string
  /** One pass for the being, from the cursor the last pass answered, with its connection's id and non-secret meta. */
  readonly pull: (beingId: string, cursor: string | null, connection: RemoteConnection) => Effect.Effect<unknown, Error>
  /** A plugin's provider (PluginSyncs); a built-in when absent. */
  readonly origin?: "builtin" | "plugin"
  /** How often the node syncs each connected being's connection by itself (cadence.ts); null or 0 for manual only. */
  readonly cadenceMs?: number | null
}

/** The connection a remote pass reads through, as far as the twin may see it: never its secret. */
export interface RemoteConnection {
  readonly id: string
  readonly meta: { readonly [key: string]: unknown }
}

export class RemoteSyncs extends Context.Tag("twin/RemoteSyncs")<RemoteSyncs, ReadonlyArray<RemoteSync>>() {}
