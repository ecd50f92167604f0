/**
 * The relay's tables, as a relay: `federation_relay_enrolments` (who may have envelopes held
 * here, until when) and `federation_relay_held` (the sealed envelopes, filed under the enrolled
 * did they are for). Only the mailbox's own did, proved by the caller, ever reads a mailbox.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { SealedEnvelope } from "../contract/wire.ts"

const Mailbox = Schema.Struct({ mailbox: Schema.String, at: Schema.String })

export class RelayMailboxRepository extends Effect.Service<RelayMailboxRepository>()(
  "federation/RelayMailboxRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      /** Enrols a node, or renews its enrolment. */
      const enrol = operation(
        "federation.relayEnrol",
        SqlSchema.void({
          Request: Schema.Struct({ did: Schema.String, enrolledAt: Schema.String, expiresAt: Schema.String }),
          execute: ({ did, enrolledAt, expiresAt }) =>
            sql`INSERT INTO federation_relay_enrolments (did, enrolled_at, expires_at) VALUES (${did}, ${enrolledAt}, ${expiresAt})
          ON CONFLICT (did) DO UPDATE SET enrolled_at = excluded.enrolled_at, expires_at = excluded.expires_at`
        })
      )

      /** Whether `mailbox` is enrolled and its enrolment still runs at `at`. */
      const enrolled = operation("federation.relayEnrolled", (input: typeof Mailbox.Type) =>
        Effect.map(
          SqlSchema.findAll({
            Request: Mailbox,
            Result: Schema.Struct({ did: Schema.String }),
            execute: ({ mailbox, at }) =>
              sql`SELECT did FROM federation_relay_enrolments WHERE did = ${mailbox} AND expires_at > ${at}`
          })(input),
          (rows) => rows.length === 1
        )
      )

      /** The dids with a running enrolment: what the capability profile says this relay fronts. */
      const fronts = operation(
        "federation.relayFronts",
        SqlSchema.findAll({
          Request: Schema.String,
          Result: Schema.Struct({ did: Schema.String }),
          execute: (at) =>
            sql`SELECT did FROM federation_relay_enrolments WHERE expires_at > ${at} ORDER BY did LIMIT 1000`
        })
      )

      /** Envelopes waiting in a mailbox (held, or handed and not acknowledged). */
      const waiting = operation("federation.relayWaiting", (mailbox: string) =>
        Effect.map(
          SqlSchema.findAll({
            Request: Schema.String,
            Result: Schema.Struct({ count: Schema.Number }),
            execute: (box) =>
              sql`SELECT COUNT(*) AS count FROM federation_relay_held WHERE mailbox = ${box} AND state IN ('held', 'handed')`
          })(mailbox),
          (rows) => rows[0]?.count ?? 0
        )
      )

      /** Files an envelope; false when one with its digest is in that mailbox already (a replay). */
      const deposit = operation(
        "federation.relayDeposit",
        (input: {
          readonly mailbox: string
          readonly digest: string
          readonly envelope: SealedEnvelope
          readonly at: string
          readonly expiresAt: string
        }) =>
          Effect.map(
            sql`INSERT INTO federation_relay_held ${sql.insert({
              mailbox: input.mailbox,
              digest: input.digest,
              envelope: JSON.stringify(input.envelope),
              state: "held",
              deposited_at: input.at,
              expires_at: input.expiresAt
            })} ON CONFLICT (mailbox, digest) DO NOTHING RETURNING digest`,
            (rows) => rows.length === 1
          )
      )

      /** Handed envelopes the mailbox's node names in its ack: acknowledged; answers how many. */
      const acknowledge = operation(
        "federation.relayAcknowledge",
        (input: { readonly mailbox: string; readonly digests: ReadonlyArray<string> }) =>
          input.digests.length === 0
            ? Effect.succeed(0)
            : Effect.map(
                sql`UPDATE federation_relay_held SET state = 'acked'
            WHERE mailbox = ${input.mailbox} AND state = 'handed' AND ${sql.in("digest", input.digests)} RETURNING digest`,
                (rows) => rows.length
              )
      )

      /**
       * What the mailbox's node is handed next: oldest first, held or handed before and not acknowledged
       * (at-least-once).
       */
      const collectable = operation(
        "federation.relayCollectable",
        SqlSchema.findAll({
          Request: Schema.Struct({ mailbox: Schema.String, limit: Schema.Int }),
          Result: Schema.Struct({ digest: Schema.String, envelope: JsonColumn(SealedEnvelope) }),
          execute: ({ mailbox, limit }) =>
            sql`SELECT digest, envelope FROM federation_relay_held WHERE mailbox = ${mailbox} AND state IN ('held', 'handed')
          ORDER BY deposited_at, digest LIMIT ${limit}`
        })
      )

      const markHanded = operation(
        "federation.relayHanded",
        (input: { readonly mailbox: string; readonly digests: ReadonlyArray<string> }) =>
          input.digests.length === 0
            ? Effect.void
            : sql`UPDATE federation_relay_held SET state = 'handed' WHERE mailbox = ${input.mailbox} AND ${sql.in("digest", input.digests)}`.pipe(
                Effect.asVoid
              )
      )

      /** Drops envelopes whose hold ended (collected or not) and enrolments that ran out. */
      const purge = operation("federation.relayPurge", (at: string) =>
        Effect.zipRight(
          sql`DELETE FROM federation_relay_held WHERE expires_at <= ${at}`,
          sql`DELETE FROM federation_relay_enrolments WHERE expires_at <= ${at}`
        ).pipe(Effect.asVoid)
      )

      return { enrol, enrolled, fronts, waiting, deposit, acknowledge, collectable, markHanded, purge } as const
    })
  }
) {}
