/**
 * `federation_conversations`: which direct thread is a conversation with which remote being,
 * through which peer, for which local being. One per (local being, peer, remote being).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export const StoredConversation = Schema.Struct({
  threadId: Schema.String,
  localBeingId: Schema.String,
  peerDid: Schema.String,
  remoteDid: Schema.String,
  remoteHandle: Schema.NullOr(Schema.String),
  petname: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type StoredConversation = typeof StoredConversation.Type

const columns = `thread_id AS "threadId", local_being_id AS "localBeingId", peer_did AS "peerDid", remote_did AS "remoteDid",
  remote_handle AS "remoteHandle", petname, created_at AS "createdAt"`

const Parties = Schema.Struct({ localBeingId: Schema.String, peerDid: Schema.String, remoteDid: Schema.String })

export class ConversationsRepository extends Effect.Service<ConversationsRepository>()(
  "federation/ConversationsRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const all = sql.literal(columns)

      const insert = operation(
        "federation.insertConversation",
        SqlSchema.void({
          Request: StoredConversation,
          execute: (c) =>
            sql`INSERT INTO federation_conversations (thread_id, local_being_id, peer_did, remote_did, remote_handle, petname, created_at)
          VALUES (${c.threadId}, ${c.localBeingId}, ${c.peerDid}, ${c.remoteDid}, ${c.remoteHandle}, ${c.petname}, ${c.createdAt})`
        })
      )

      const find = operation(
        "federation.findConversation",
        SqlSchema.findOne({
          Request: Parties,
          Result: StoredConversation,
          execute: (p) =>
            sql`SELECT ${all} FROM federation_conversations
          WHERE local_being_id = ${p.localBeingId} AND peer_did = ${p.peerDid} AND remote_did = ${p.remoteDid}`
        })
      )

      const byThread = operation(
        "federation.conversationOfThread",
        SqlSchema.findOne({
          Request: Schema.String,
          Result: StoredConversation,
          execute: (threadId) => sql`SELECT ${all} FROM federation_conversations WHERE thread_id = ${threadId}`
        })
      )

      /** A page of the being's conversations, oldest first (the thread's id breaks a tie). */
      const listFor = operation(
        "federation.conversationsOf",
        SqlSchema.findAll({
          Request: Schema.Struct({ beingId: Schema.String, limit: Schema.Int, offset: Schema.Int }),
          Result: StoredConversation,
          execute: ({ beingId, limit, offset }) =>
            sql`SELECT ${all} FROM federation_conversations WHERE local_being_id = ${beingId}
            ORDER BY created_at, thread_id LIMIT ${limit} OFFSET ${offset}`
        })
      )

      /** What the remote being is called: a petname the owner gave, or the handle its passport named. */
      const rename = operation(
        "federation.renameConversation",
        SqlSchema.void({
          Request: Schema.Struct({
            threadId: Schema.String,
            petname: Schema.NullOr(Schema.String),
            remoteHandle: Schema.NullOr(Schema.String)
          }),
          execute: (r) =>
            sql`UPDATE federation_conversations SET petname = COALESCE(${r.petname}, petname), remote_handle = COALESCE(${r.remoteHandle}, remote_handle)
          WHERE thread_id = ${r.threadId}`
        })
      )

      return { insert, find, byThread, listFor, rename } as const
    })
  }
) {}
