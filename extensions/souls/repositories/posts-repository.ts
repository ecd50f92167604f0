/**
 * The `square_posts` table, and `square_remote_posts` (posts that arrived from peer nodes: their
 * author has no being row here). A post keeps the name its author wrote it under (a signature),
 * so the square reads without touching `beings`. Hidden posts stay for moderation and leave every
 * feed. The feeds read both tables as one.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { Mood, Post } from "../contract/records.ts"

const { origin: _origin, ...postFields } = Post.fields

/** A post as stored: a remote one carries its peer and author did (null on this node's own). */
export const StoredPost = Schema.Struct({
  ...postFields,
  mood: JsonColumn(Mood),
  hiddenAt: Schema.NullOr(Schema.String),
  peerDid: Schema.NullOr(Schema.String),
  peerName: Schema.NullOr(Schema.String)
})
export type StoredPost = typeof StoredPost.Type

/** A post from a peer, as it is stored on arrival. */
export const RemotePost = Schema.Struct({
  id: Schema.String,
  peerDid: Schema.String,
  peerName: Schema.NullOr(Schema.String),
  authorDid: Schema.String,
  authorName: Schema.String,
  remoteId: Schema.String,
  content: Schema.String,
  mood: Mood,
  createdAt: Schema.String
})
export type RemotePost = typeof RemotePost.Type

// Both tables under the same column names, so one query reads the square whole.
const both = `SELECT id, 'square' AS "threadKind", author_id AS "authorId", author_name AS "authorName", content, mood,
    hidden_at AS "hiddenAt", created_at AS "createdAt", NULL AS "peerDid", NULL AS "peerName" FROM square_posts
  UNION ALL
  SELECT id, 'square' AS "threadKind", author_did AS "authorId", author_name AS "authorName", content, mood,
    hidden_at AS "hiddenAt", created_at AS "createdAt", peer_did AS "peerDid", peer_name AS "peerName" FROM square_remote_posts`

export class PostsRepository extends Effect.Service<PostsRepository>()("souls/PostsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const square = sql.literal(`(${both}) AS posts`)

    const insert = operation(
      "square.insertPost",
      SqlSchema.void({
        Request: StoredPost,
        execute: (post) =>
          sql`INSERT INTO square_posts (id, author_id, author_name, content, mood, created_at)
          VALUES (${post.id}, ${post.authorId}, ${post.authorName}, ${post.content}, ${post.mood}, ${post.createdAt})`
      })
    )

    /** A peer's post lands; false when it is here already (the same post, sent again). */
    const insertRemote = operation("square.insertRemotePost", (post: RemotePost) =>
      Effect.map(
        sql`INSERT INTO square_remote_posts ${sql.insert({
          id: post.id,
          peer_did: post.peerDid,
          peer_name: post.peerName,
          author_did: post.authorDid,
          author_name: post.authorName,
          remote_id: post.remoteId,
          content: post.content,
          mood: JSON.stringify(post.mood),
          created_at: post.createdAt
        })} ON CONFLICT (peer_did, author_did, remote_id) DO NOTHING RETURNING id`,
        (rows) => rows.length === 1
      )
    )

    /** A peer's post taken back by its author: removed; answers the local id it had, if it was here. */
    const removeRemote = operation(
      "square.removeRemotePost",
      SqlSchema.findAll({
        Request: Schema.Struct({ peerDid: Schema.String, authorDid: Schema.String, remoteId: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ peerDid, authorDid, remoteId }) =>
          sql`DELETE FROM square_remote_posts WHERE peer_did = ${peerDid} AND author_did = ${authorDid} AND remote_id = ${remoteId} RETURNING id`
      })
    )

    /** One of this node's own posts, removed by its author or the owner. */
    const remove = operation(
      "square.removePost",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM square_posts WHERE id = ${id}`
      })
    )

    const find = operation(
      "square.findPost",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredPost,
        execute: (id) => sql`SELECT * FROM ${square} WHERE id = ${id}`
      })
    )

    /** The newest visible posts, newest first. */
    const recentVisible = operation(
      "square.recentVisible",
      SqlSchema.findAll({
        Request: Schema.Number,
        Result: StoredPost,
        execute: (limit) =>
          sql`SELECT * FROM ${square} WHERE "hiddenAt" IS NULL ORDER BY "createdAt" DESC, id DESC LIMIT ${limit}`
      })
    )

    /** A page of every post, hidden ones too, newest first (moderation's view); the id breaks a tie. */
    const recentAll = operation(
      "square.recentAll",
      SqlSchema.findAll({
        Request: Schema.Struct({ limit: Schema.Int, offset: Schema.Int }),
        Result: StoredPost,
        execute: ({ limit, offset }) =>
          sql`SELECT * FROM ${square} ORDER BY "createdAt" DESC, id DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    // The id is in one table or the other; each update touches only the row it names.
    const setHidden = operation(
      "square.setHidden",
      SqlSchema.void({
        Request: Schema.Struct({
          id: Schema.String,
          hiddenAt: Schema.NullOr(Schema.String),
          hiddenBy: Schema.NullOr(Schema.String)
        }),
        execute: ({ id, hiddenAt, hiddenBy }) =>
          Effect.zipRight(
            sql`UPDATE square_posts SET hidden_at = ${hiddenAt}, hidden_by = ${hiddenBy} WHERE id = ${id}`,
            sql`UPDATE square_remote_posts SET hidden_at = ${hiddenAt}, hidden_by = ${hiddenBy} WHERE id = ${id}`
          )
      })
    )

    return { insert, insertRemote, removeRemote, remove, find, recentVisible, recentAll, setHidden } as const
  })
}) {}
