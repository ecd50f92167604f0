/**
 * A webhook provider's deliveries (contract/webhooks-api.ts): a delivery names a provider and one
 * being's connection to it; it is verified against that connection's secret by the provider's
 * `verify` (`hmac-sha256`: `X-Signature: sha256=<hex>` over the raw body; `shared-secret`: the
 * secret repeated in `X-Webhook-Secret`; both compared in constant time), and only then handed to
 * the plugin's `receive` with the body and the connection's non-secret meta. Its answer is
 * validated as a sync's is, and each new item becomes a memory with an activity. An unknown
 * provider or connection, one not connected, and a bad signature are all the same 401, so a
 * caller without the secret learns nothing about which connections exist.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { InvalidDelivery, InvalidSignature } from "./contract/errors.ts"
import { Activity } from "./activity.ts"
import { ConnectionCredentials } from "./connection-credentials.ts"
import type { WebhookReceived } from "./contract/webhooks-api.ts"
import { PluginSyncs, type PluginReceiver } from "./plugin-syncs.ts"
import { RemoteImporter } from "./remote-import.ts"
import { ConnectionsRepository } from "./repositories/connections-repository.ts"
import { fnNamed } from "../../kernel/spans.ts"

/** What the route read of one delivery. */
export interface Delivery {
  readonly provider: string
  readonly connectionId: string
  readonly contentType: string
  readonly body: Uint8Array
  /** The signature headers, as sent (lowercase names). */
  readonly signature: string | undefined
  readonly sharedSecret: string | undefined
}

const refused = new InvalidSignature({
  message:
    "This delivery does not verify: sign it with the connection's secret (X-Signature: sha256=<hex HMAC of the body>) or send the shared secret, as the provider asks."
})

/** Equal in constant time, whatever the lengths: both sides hashed first. */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

const verifies = (receiver: PluginReceiver, delivery: Delivery, secret: Option.Option<Redacted.Redacted<string>>) => {
  if (receiver.verify === "none") return true
  if (Option.isNone(secret)) return false
  const key = Redacted.value(secret.value)
  if (receiver.verify === "shared-secret")
    return delivery.sharedSecret !== undefined && sameSecret(delivery.sharedSecret, key)
  const given = /^sha256=([0-9a-f]{64})$/i.exec(delivery.signature?.trim() ?? "")
  if (given === null) return false
  return sameSecret(given[1]!.toLowerCase(), createHmac("sha256", key).update(delivery.body).digest("hex"))
}

export class TwinWebhooks extends Effect.Service<TwinWebhooks>()("twin/TwinWebhooks", {
  dependencies: [
    ConnectionsRepository.Default,
    ConnectionCredentials.Default,
    RemoteImporter.Default,
    Activity.Default
  ],
  effect: Effect.gen(function* () {
    const connections = yield* ConnectionsRepository
    const credentials = yield* ConnectionCredentials
    const importer = yield* RemoteImporter
    const activity = yield* Activity
    const plugins = yield* PluginSyncs

    const deliver = fnNamed("twin.webhookDelivery")(function* (delivery: Delivery) {
      const receiver = (yield* plugins.receivers).find((found) => found.provider === delivery.provider)
      const row = Option.getOrNull(
        yield* connections.findDelivered({ id: delivery.connectionId, provider: delivery.provider })
      )
      if (receiver === undefined || row === null || row.status !== "connected") return yield* refused
      const secret =
        receiver.verify === "none" ? Option.none() : yield* credentials.credential(row.beingId, row.provider, "secret")
      if (!verifies(receiver, delivery, secret)) return yield* refused

      const request = {
        connectionId: row.id,
        meta: row.meta,
        contentType: delivery.contentType,
        body: new TextDecoder().decode(delivery.body)
      }
      const remote = {
        provider: receiver.provider,
        title: receiver.title,
        icon: "",
        activity: "learned" as const,
        configured: true,
        unconfigured: "",
        connect: "",
        pull: () => receiver.receive(row.beingId, request)
      }
      const counts = yield* importer.importPass(row.beingId, remote, null, { id: row.id, meta: row.meta }).pipe(
        Effect.tapError((error) =>
          activity.record(row.beingId, "learned", `Could not take a delivery to ${receiver.title}: ${error.message}`)
        ),
        Effect.mapError(
          (error) =>
            new InvalidDelivery({
              message: `The delivery was verified but not taken: ${error.message}`
            })
        )
      )
      yield* activity.record(
        row.beingId,
        "learned",
        `Received ${counts.remembered} new from ${receiver.title}${counts.known === 0 ? "" : `, ${counts.known} already remembered`}`
      )
      return { received: counts.items, remembered: counts.remembered } satisfies WebhookReceived
    })

    return { deliver } as const
  })
}) {}
