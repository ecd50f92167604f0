/**
 * A being's own credential from one of its connections, opened for the code that acts for that
 * being (the integrations adapter: email.read, chat_a.send, chat_b.send). Apart from the
 * provider registry, so the extension host, which the registry reads, can be built over it.
 *
 * The sealed secrets are held in memory, loaded at start and kept in step by the Connections
 * service's writes: a skill approved with 'Do it' runs inside the transaction that answers its
 * signal, where a read of the database would wait for that very transaction's connection. With
 * several processes on one database, each write is announced to the others (SecretChangeRelay,
 * no secret in it), which reload that one row.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import type { Connection } from "./contract/connections.ts"
import { ConnectionsRepository } from "./repositories/connections-repository.ts"
import { SecretChangeRelay, type SecretChange } from "./ports.ts"
import { SecretBox } from "./secrets/secret-box.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** A sealed secret's plaintext: the provider's secret fields by name. */
export const SecretFields = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))

const keyOf = (beingId: string, provider: string) => `${beingId}/${provider}`

/**
 * Runs `self` on a connection of its own, never inside the caller's transaction: a claim must be
 * seen by the other processes at once, and renewed tokens must stay written when the caller's
 * transaction rolls back (the refresh token is spent either way).
 */
const outsideTransaction = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.mapInputContext(
    self,
    (context: Context.Context<R>) => Context.omit(SqlClient.TransactionConnection)(context) as Context.Context<R>
  )

/** A connection lends its credential while connected, or pending a step that does not need it (the chat pairing). */
export const lendsCredential = (status: Connection["status"]) => status === "connected" || status === "pending"

export class ConnectionCredentials extends Effect.Service<ConnectionCredentials>()("twin/ConnectionCredentials", {
  dependencies: [ConnectionsRepository.Default, SecretBox.Default],
  scoped: Effect.gen(function* () {
    const box = yield* SecretBox
    const repository = yield* ConnectionsRepository
    const sql = yield* SqlClient.SqlClient
    /**
     * Whether other processes may write these secrets (PostgreSQL, a cluster's database). SQLite's
     * file has one process, and one connection a 'Do it' transaction holds: there a statement made
     * while renewing would wait for that very transaction, so the secrets stay this process's.
     */
    const shared = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    const sealed = new Map<string, string>()
    const loadAll = Effect.map(repository.usableSecrets(), (rows) => {
      sealed.clear()
      for (const row of rows) sealed.set(keyOf(row.beingId, row.provider), row.secret)
    })
    yield* loadAll

    /** Told of every copy replaced by another process's write (null: all of them), so copies made from it go too. */
    const reloaded = new Set<(change: SecretChange | null) => void>()
    const relay = yield* Effect.serviceOption(SecretChangeRelay)
    const announce = (change: SecretChange) => (Option.isSome(relay) ? relay.value.send(change) : Effect.void)
    if (Option.isSome(relay)) {
      const heard = yield* relay.value.heard
      const reload = (change: SecretChange | null) =>
        Effect.gen(function* () {
          if (change === null) yield* loadAll
          else {
            const row = yield* repository.usableSecret(change)
            if (Option.isSome(row)) sealed.set(keyOf(change.beingId, change.provider), row.value.secret)
            else sealed.delete(keyOf(change.beingId, change.provider))
          }
          for (const listener of reloaded) listener(change)
        }).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("A connection secret changed elsewhere could not be reloaded", cause)
          )
        )
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(heard), reload)))
    }

    /** What the being's connection to the provider now holds: its sealed secret, or null when it lends none. */
    const keep = (beingId: string, provider: string, secret: string | null) =>
      Effect.sync(() =>
        secret === null ? sealed.delete(keyOf(beingId, provider)) : sealed.set(keyOf(beingId, provider), secret)
      )
    const remember = (beingId: string, provider: string, secret: string | null) =>
      Effect.zipRight(keep(beingId, provider, secret), announce({ beingId, provider }))

    /** Calls `listener` whenever another process's write replaced a copy here, for as long as the process runs. */
    const onReload = (listener: (change: SecretChange | null) => void) => reloaded.add(listener)

    /** Every secret field of the being's usable connection to `provider`, when there is one that opens. */
    const opened = (envelope: string) =>
      Effect.map(
        box.open(envelope),
        Option.flatMap((plain) =>
          Option.map(Schema.decodeUnknownOption(SecretFields)(Redacted.value(plain)), Redacted.make)
        )
      )

    const fields = fnNamed("twin.connectionSecretFields")(function* (beingId: string, provider: string) {
      const envelope = sealed.get(keyOf(beingId, provider))
      if (envelope === undefined) return Option.none<Redacted.Redacted<Readonly<Record<string, string>>>>()
      return yield* opened(envelope)
    })

    /** The secret field `field` of the being's usable connection to `provider`, when there is one that opens. */
    const credential = (beingId: string, provider: string, field: string) =>
      Effect.map(
        fields(beingId, provider),
        Option.flatMap((values) => Option.map(Option.fromNullable(Redacted.value(values)[field]), Redacted.make))
      )

    /**
     * New secret fields for a connection the being holds (a refreshed access token), sealed and
     * written on a fiber of its own, never awaited: a call approved with 'Do it' runs inside the
     * transaction answering its signal, and sealing (the node's salt) and writing both wait for
     * that transaction's connection. The caller keeps the new values until `fields` answers them.
     */
    const reseal = (beingId: string, provider: string, values: Readonly<Record<string, string>>) =>
      Effect.forkDaemon(
        Effect.gen(function* () {
          const secret = yield* box.seal(JSON.stringify(values))
          if (!sealed.has(keyOf(beingId, provider))) return
          sealed.set(keyOf(beingId, provider), secret)
          yield* repository.replaceSecret({ beingId, provider, secret })
          yield* announce({ beingId, provider })
        }).pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning(
              `The renewed ${provider} secret was not stored; it is kept in memory until the node stops`,
              cause
            )
          ),
          spanNamed("twin.resealConnectionSecret")
        )
      ).pipe(Effect.asVoid)

    /**
     * The secret fields the row holds now (another process may have renewed them), kept as this process's copy too.
     * Shared databases only.
     */
    const stored = fnNamed("twin.storedConnectionSecret")(function* (beingId: string, provider: string) {
      const row = yield* outsideTransaction(repository.usableSecret({ beingId, provider }))
      // A copy of what the row holds: nothing new for the other processes to hear of.
      yield* keep(beingId, provider, Option.isSome(row) ? row.value.secret : null)
      return Option.isSome(row)
        ? yield* opened(row.value.secret)
        : Option.none<Redacted.Redacted<Readonly<Record<string, string>>>>()
    })

    /**
     * Claims the renewal of the connection's tokens across processes until `until` (ISO); false while another holds it.
     */
    const claimRenewal = (beingId: string, provider: string, claimer: string, now: string, until: string) =>
      outsideTransaction(repository.claimRenewal({ beingId, provider, claimer, now, until }))

    /**
     * Ends a claimed renewal: the renewed fields sealed and written (awaited: the other processes read them), or none
     * on a failure.
     */
    const endRenewal = fnNamed("twin.endTokenRenewal")(function* (
      beingId: string,
      provider: string,
      claimer: string,
      values: Readonly<Record<string, string>> | null
    ) {
      const secret = values === null ? null : yield* box.seal(JSON.stringify(values))
      yield* outsideTransaction(repository.endRenewal({ beingId, provider, claimer, secret }))
      if (secret !== null && sealed.has(keyOf(beingId, provider))) yield* remember(beingId, provider, secret)
    })

    return { credential, fields, reseal, remember, onReload, shared, stored, claimRenewal, endRenewal } as const
  })
}) {}
