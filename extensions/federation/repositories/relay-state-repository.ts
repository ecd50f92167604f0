/**
 * `federation_relay_client`: this node's own relay, one row. The relay's did is pinned here at
 * the first enrolment that held, beside the endpoint it was pinned for; the counts are the relay
 * loop's and the courier's.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { RelayLimits } from "../contract/relay.ts"

export const StoredRelayState = Schema.Struct({
  endpoint: Schema.NullOr(Schema.String),
  relayDid: Schema.NullOr(Schema.String),
  enrolledAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  limits: Schema.NullOr(JsonColumn(RelayLimits)),
  deposited: Schema.Number,
  collected: Schema.Number,
  lastError: Schema.NullOr(Schema.String)
})
export type StoredRelayState = typeof StoredRelayState.Type

export const noRelayState: StoredRelayState = {
  endpoint: null,
  relayDid: null,
  enrolledAt: null,
  expiresAt: null,
  limits: null,
  deposited: 0,
  collected: 0,
  lastError: null
}

export class RelayStateRepository extends Effect.Service<RelayStateRepository>()("federation/RelayStateRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findRow = SqlSchema.findOne({
      Request: Schema.Void,
      Result: StoredRelayState,
      execute: () =>
        sql`SELECT endpoint, relay_did AS "relayDid", enrolled_at AS "enrolledAt", expires_at AS "expiresAt", limits, deposited, collected,
          last_error AS "lastError" FROM federation_relay_client WHERE id = 'relay'`
    })
    const find = operation("federation.relayState", () =>
      Effect.map(
        findRow(undefined),
        Option.getOrElse(() => noRelayState)
      )
    )

    /** Writes the enrolment's part of the row (the counts are only ever added to). */
    const save = operation("federation.saveRelayState", (state: StoredRelayState) => {
      const fields = {
        endpoint: state.endpoint,
        relay_did: state.relayDid,
        enrolled_at: state.enrolledAt,
        expires_at: state.expiresAt,
        limits: state.limits === null ? null : JSON.stringify(state.limits),
        last_error: state.lastError
      }
      return sql`INSERT INTO federation_relay_client ${sql.insert({ id: "relay", ...fields })}
        ON CONFLICT (id) DO UPDATE SET ${sql.update(fields)}`.pipe(Effect.asVoid)
    })

    /** Adds to the counts: envelopes deposited at a peer's relay, envelopes collected from this node's. */
    const count = operation(
      "federation.countRelay",
      (input: { readonly deposited: number; readonly collected: number }) =>
        sql`INSERT INTO federation_relay_client (id, deposited, collected) VALUES ('relay', ${input.deposited}, ${input.collected})
        ON CONFLICT (id) DO UPDATE SET deposited = federation_relay_client.deposited + ${input.deposited},
          collected = federation_relay_client.collected + ${input.collected}`.pipe(Effect.asVoid)
    )

    return { find, save, count } as const
  })
}) {}
