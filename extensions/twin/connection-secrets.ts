/**
 * The twin's connection secrets and consent grants as its contract publishes them
 * (contract/connection-secrets.ts). Apart from the Connections service on purpose: the consent
 * flows and the integrations need only these, and Connections stands on the chat bridge and the
 * threads (its Muse), which stand on the skills and so on the extension host, which stands on the
 * integrations: granting through Connections made a cycle.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomUUID } from "node:crypto"
import { nowIso } from "../../kernel/time.ts"
import { ConnectionGrants, ConnectionSecrets } from "./contract/connection-secrets.ts"
import type { Connection } from "./contract/connections.ts"
import { ConnectionCredentials } from "./connection-credentials.ts"
import { NodeValuesLive } from "./node-values.ts"
import { ConnectionsRepository } from "./repositories/connections-repository.ts"
import { SecretBox } from "./secrets/secret-box.ts"
import { fnNamed } from "../../kernel/spans.ts"

const ConnectionSecretsLive = Layer.effect(
  ConnectionSecrets,
  Effect.gen(function* () {
    const credentials = yield* ConnectionCredentials
    const box = yield* SecretBox
    const { credential, fields, reseal, onReload, shared, stored, claimRenewal, endRenewal } = credentials
    return { sealable: box.configured, shared, credential, fields, reseal, onReload, stored, claimRenewal, endRenewal }
  })
)

const ConnectionGrantsLive = Layer.effect(
  ConnectionGrants,
  Effect.gen(function* () {
    const connections = yield* ConnectionsRepository
    const credentials = yield* ConnectionCredentials
    const box = yield* SecretBox
    const grant = fnNamed("connections.grant")(function* (
      beingId: string,
      provider: string,
      granted: {
        readonly label: string
        readonly meta: Record<string, string>
        readonly secret: Readonly<Record<string, string>>
      }
    ) {
      const secret = yield* box.seal(JSON.stringify(granted.secret))
      const existing = yield* connections.find({ beingId, provider })
      if (Option.isSome(existing)) {
        yield* connections.update({
          id: existing.value.id,
          beingId,
          label: granted.label,
          status: "connected",
          meta: granted.meta,
          secret
        })
      } else {
        yield* connections.create({
          id: randomUUID(),
          beingId,
          provider,
          label: granted.label,
          status: "connected",
          meta: granted.meta,
          createdAt: yield* nowIso,
          secret
        })
      }
      yield* credentials.remember(beingId, provider, secret)
      const row = Option.getOrThrow(yield* connections.find({ beingId, provider }))
      const { id, label, status, meta, lastSyncAt, createdAt } = row
      return {
        id,
        beingId: row.beingId,
        provider: row.provider,
        label,
        status,
        meta,
        lastSyncAt,
        createdAt
      } satisfies Connection
    })
    return { grant }
  })
)

/**
 * Both tags over one ConnectionCredentials (its in-memory copies must be the node's only ones), with the node's salt
 * bound.
 */
export const ConnectionSecretsFeature = Layer.mergeAll(ConnectionSecretsLive, ConnectionGrantsLive).pipe(
  Layer.provide(Layer.mergeAll(ConnectionCredentials.Default, ConnectionsRepository.Default, SecretBox.Default)),
  Layer.provide(NodeValuesLive)
)
