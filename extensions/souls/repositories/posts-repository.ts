/**
 * The `square_posts` table. A post keeps the name its author wrote it under (a signature), so the
 * square reads without touching `beings`. Hidden posts stay for moderation and leave every feed.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { ModeratedPost, Mood } from "../contract/records.ts"

export const StoredPost = Schema.Struct({ ...ModeratedPost.fields, mood: JsonColumn(Mood) })
export type StoredPost = typeof StoredPost.Type

const columns = `id, 'square' AS "threadKind", author_id AS "authorId", author_name AS "authorName", content, mood,
  hidden_at AS "hiddenAt", created_at AS "createdAt"`

export class PostsRepository extends Effect.Service<PostsRepository>()("souls/PostsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const insert = operation("square.insertPost", SqlSchema.void({
      Request: StoredPost,
      execute: (post) =>
        sql`INSERT INTO square_posts (id, author_id, author_name, content, mood, created_at)
          VALUES (${post.id}, ${post.authorId}, ${post.authorName}, ${post.content}, ${post.mood}, ${post.createdAt})`
    }))

    const find = operation("square.findPost", SqlSchema.findOne({
      Request: Schema.String,
      Result: StoredPost,
      execute: (id) => sql`SELECT ${all} FROM square_posts WHERE id = ${id}`
    }))

    /** The newest visible posts, newest first. */
    const recentVisible = operation("square.recentVisible", SqlSchema.findAll({
      Request: Schema.Number,
      Result: StoredPost,
      execute: (limit) => sql`SELECT ${all} FROM square_posts WHERE hidden_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ${limit}`
    }))

    /** Every post, hidden ones too, newest first (moderation's view). */
    const recentAll = operation("square.recentAll", SqlSchema.findAll({
      Request: Schema.Number,
      Result: StoredPost,
      execute: (limit) => sql`SELECT ${all} FROM square_posts ORDER BY created_at DESC, id DESC LIMIT ${limit}`
    }))

    const setHidden = operation("square.setHidden", SqlSchema.void({
      Request: Schema.Struct({ id: Schema.String, hiddenAt: Schema.NullOr(Schema.String), hiddenBy: Schema.NullOr(Schema.String) }),
      execute: ({ id, hiddenAt, hiddenBy }) => sql`UPDATE square_posts SET hidden_at = ${hiddenAt}, hidden_by = ${hiddenBy} WHERE id = ${id}`
    }))

    return { insert, find, recentVisible, recentAll, setHidden } as const
  })
}) {}
