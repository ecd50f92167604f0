/**
 * `federation_messages`: one row per federated document and peer. Part one writes inbound
 * documents only (landing them in a thread is part two's).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../../kernel/repository.ts"
import { FederatedMessage } from "../contract/records.ts"
import { EnvelopeBody } from "../contract/wire.ts"

const StoredMessage = Schema.Struct({ ...FederatedMessage.fields, sealed: BooleanColumn, verified: BooleanColumn })

const columns = `id, direction, kind, thread_id AS "threadId", message_id AS "messageId", peer_did AS "peerDid",
  author_did AS "authorDid", audience_did AS "audienceDid", digest, sealed, state, attempts,
  next_attempt_at AS "nextAttemptAt", last_error AS "lastError", verified, created_at AS "createdAt", updated_at AS "updatedAt"`

export class MessagesRepository extends Effect.Service<MessagesRepository>()("federation/MessagesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** Stores an accepted inbound document; false when one with its digest from that peer is there already. */
    const insertInbound = operation("federation.insertInbound", (input: { readonly row: FederatedMessage; readonly document: EnvelopeBody }) => {
      const { row, document } = input
      return Effect.map(
        sql`INSERT INTO federation_messages ${sql.insert({
          id: row.id,
          direction: row.direction,
          kind: row.kind,
          thread_id: row.threadId,
          message_id: row.messageId,
          peer_did: row.peerDid,
          author_did: row.authorDid,
          audience_did: row.audienceDid,
          digest: row.digest,
          sealed: row.sealed ? 1 : 0,
          state: row.state,
          attempts: row.attempts,
          next_attempt_at: row.nextAttemptAt,
          last_error: row.lastError,
          verified: row.verified ? 1 : 0,
          document: JSON.stringify(document),
          created_at: row.createdAt,
          updated_at: row.updatedAt
        })} ON CONFLICT (direction, digest, peer_did) DO NOTHING RETURNING id`,
        (rows) => rows.length === 1
      )
    })

    const listByPeer = operation("federation.messagesOfPeer", SqlSchema.findAll({
      Request: Schema.String,
      Result: StoredMessage,
      execute: (peerDid) => sql`SELECT ${all} FROM federation_messages WHERE peer_did = ${peerDid} ORDER BY created_at, id`
    }))

    /** Threads with wire rows of this peer: what deleting the peer leaves without their courier. */
    const countThreads = SqlSchema.findAll({
      Request: Schema.String,
      Result: Schema.Struct({ count: Schema.Number }),
      execute: (peerDid) =>
        sql`SELECT COUNT(DISTINCT thread_id) AS count FROM federation_messages WHERE peer_did = ${peerDid} AND thread_id IS NOT NULL`
    })
    const threadsOfPeer = operation("federation.threadsOfPeer", (peerDid: string) =>
      Effect.map(countThreads(peerDid), (rows) => rows[0]?.count ?? 0))

    return { insertInbound, listByPeer, threadsOfPeer } as const
  })
}) {}
