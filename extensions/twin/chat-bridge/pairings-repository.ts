/**
 * The `twin_chat_pairings` table: per being, the pending pairing code of its chat_a connection
 * and, once a chat sent it, that chat (its id and title) and the fingerprint of the bot it paired
 * through. One row per being, as one chat_a connection per being.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export const ChatPairingRow = Schema.Struct({
  beingId: Schema.String,
  code: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  bot: Schema.NullOr(Schema.String),
  chatId: Schema.NullOr(Schema.String),
  chatTitle: Schema.NullOr(Schema.String),
  pairedAt: Schema.NullOr(Schema.String)
})
export type ChatPairingRow = typeof ChatPairingRow.Type

const columns = `being_id AS "beingId", code, expires_at AS "expiresAt", bot, chat_id AS "chatId", chat_title AS "chatTitle", paired_at AS "pairedAt"`

const Paired = Schema.Struct({
  beingId: Schema.String,
  bot: Schema.String,
  chatId: Schema.String,
  chatTitle: Schema.String,
  pairedAt: Schema.String
})

export class ChatPairingsRepository extends Effect.Service<ChatPairingsRepository>()("twin/ChatPairingsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const find = operation(
      "chatBridge.findPairing",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: ChatPairingRow,
        execute: (beingId) => sql`SELECT ${all} FROM twin_chat_pairings WHERE being_id = ${beingId}`
      })
    )

    const byCode = operation(
      "chatBridge.findByCode",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: ChatPairingRow,
        execute: (code) => sql`SELECT ${all} FROM twin_chat_pairings WHERE code = ${code}`
      })
    )

    /** The beings a chat is paired with through one bot (at most one, kept so by `pair`). */
    const byChat = operation(
      "chatBridge.findByChat",
      SqlSchema.findAll({
        Request: Schema.Struct({ bot: Schema.String, chatId: Schema.String }),
        Result: ChatPairingRow,
        execute: ({ bot, chatId }) =>
          sql`SELECT ${all} FROM twin_chat_pairings WHERE bot = ${bot} AND chat_id = ${chatId}`
      })
    )

    /** A new pending code for the being, in place of whatever it had (a code, or a chat paired through another bot). */
    const issue = operation(
      "chatBridge.issueCode",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, code: Schema.String, expiresAt: Schema.String }),
        execute: ({ beingId, code, expiresAt }) => sql`INSERT INTO twin_chat_pairings ${sql.insert({
          being_id: beingId,
          code,
          expires_at: expiresAt,
          bot: null,
          chat_id: null,
          chat_title: null,
          paired_at: null
        })} ON CONFLICT (being_id) DO UPDATE SET code = excluded.code, expires_at = excluded.expires_at, bot = NULL,
        chat_id = NULL, chat_title = NULL, paired_at = NULL`
      })
    )

    /** The chat sent the being's code: it is the being's chat now, and the code is spent. */
    const pair = operation(
      "chatBridge.pair",
      SqlSchema.void({
        Request: Paired,
        execute: (
          row
        ) => sql`UPDATE twin_chat_pairings SET code = NULL, expires_at = NULL, bot = ${row.bot}, chat_id = ${row.chatId},
        chat_title = ${row.chatTitle}, paired_at = ${row.pairedAt} WHERE being_id = ${row.beingId}`
      })
    )

    const remove = operation(
      "chatBridge.removePairing",
      SqlSchema.void({
        Request: Schema.String,
        execute: (beingId) => sql`DELETE FROM twin_chat_pairings WHERE being_id = ${beingId}`
      })
    )

    return { find, byCode, byChat, issue, pair, remove } as const
  })
}) {}
