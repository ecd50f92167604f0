/**
 * A being's own credential from one of its connections, opened for the code that acts for that
 * being (the integrations adapter: email.read, chat_a.send, chat_b.send). Apart from the
 * provider registry, so the extension host, which the registry reads, can be built over it.
 *
 * The sealed secrets are held in memory, loaded at start and kept in step by the Connections
 * service's writes: a skill approved with 'Do it' runs inside the transaction that answers its
 * signal, where a read of the database would wait for that very transaction's connection.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { Connection } from "./contract/connections.ts"
import { ConnectionsRepository } from "./repositories/connections-repository.ts"
import { SecretBox } from "./secrets/secret-box.ts"

/** A sealed secret's plaintext: the provider's secret fields by name. */
export const SecretFields = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))

const keyOf = (beingId: string, provider: string) => `${beingId}/${provider}`

/** A connection lends its credential while connected, or pending a step that does not need it (the chat pairing). */
export const lendsCredential = (status: Connection["status"]) => status === "connected" || status === "pending"

export class ConnectionCredentials extends Effect.Service<ConnectionCredentials>()("twin/ConnectionCredentials", {
  dependencies: [ConnectionsRepository.Default, SecretBox.Default],
  effect: Effect.gen(function* () {
    const box = yield* SecretBox
    const sealed = new Map((yield* (yield* ConnectionsRepository).usableSecrets()).map((row) => [keyOf(row.beingId, row.provider), row.secret]))

    /** What the being's connection to the provider now holds: its sealed secret, or null when it lends none. */
    const remember = (beingId: string, provider: string, secret: string | null) =>
      Effect.sync(() => (secret === null ? sealed.delete(keyOf(beingId, provider)) : sealed.set(keyOf(beingId, provider), secret)))

    /** The secret field `field` of the being's usable connection to `provider`, when there is one that opens. */
    const credential = Effect.fn("twin.connectionCredential")(function* (beingId: string, provider: string, field: string) {
      const envelope = sealed.get(keyOf(beingId, provider))
      if (envelope === undefined) return Option.none<Redacted.Redacted<string>>()
      const opened = yield* box.open(envelope)
      if (Option.isNone(opened)) return Option.none<Redacted.Redacted<string>>()
      const fields = Schema.decodeUnknownOption(SecretFields)(Redacted.value(opened.value))
      return Option.flatMap(fields, (values) => Option.map(Option.fromNullable(values[field]), Redacted.make))
    })

    return { credential, remember } as const
  })
}) {}
