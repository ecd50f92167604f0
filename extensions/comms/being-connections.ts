/**
 * The BeingConnections port bound to the beings' own connections: the secret field of a being's
 * `mail_a`, `chat_a` or `chat_b` connection, opened from its envelope, is the credential the
 * integrations adapter prefers to the node's setting. A connection whose secret no longer opens
 * (ENCRYPTION_KEY changed) answers none, said in the log, so the node's setting is used.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ConnectionSecrets } from "../twin/contract/connection-secrets.ts"
import { credentialField } from "../twin/contract/connections.ts"
import { BeingConnections } from "./connections.ts"

export const BeingConnectionsLive = Layer.effect(
  BeingConnections,
  Effect.map(ConnectionSecrets, (credentials) => ({
    credential: (beingId, provider) => credentials.credential(beingId, provider, credentialField[provider])
  }))
)
