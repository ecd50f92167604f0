/**
 * The `push_keys` and `push_subscriptions` tables. A subscription is written with its keys and read back to send; its
 * person's view (records.ts `PushSubscription`) leaves the endpoint and keys out.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"
import { PushSubscription } from "./contract/records.ts"
import { fnNamed } from "../../kernel/spans.ts"

export const StoredKeys = Schema.Struct({ publicKey: Schema.String, privateKeySealed: Schema.String })

/** A subscription as the sender needs it. */
export const Target = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  endpoint: Schema.String,
  p256dh: Schema.String,
  auth: Schema.String
})
export type Target = typeof Target.Type

const Written = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  endpoint: Schema.String,
  p256dh: Schema.String,
  auth: Schema.String,
  device: Schema.String,
  now: Schema.String
})

const Owned = Schema.Struct({ beingId: Schema.String, id: Schema.String })

export class PushRepository extends Effect.Service<PushRepository>()("push/PushRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const viewColumns = sql.literal(`id, device, created_at AS "createdAt"`)
    const targetColumns = sql.literal(`id, being_id AS "beingId", endpoint, p256dh, auth`)

    const keys = operation(
      "push.keys",
      SqlSchema.findOne({
        Request: Schema.Void,
        Result: StoredKeys,
        execute: () =>
          sql`SELECT public_key AS "publicKey", private_key_sealed AS "privateKeySealed" FROM push_keys WHERE id = 1`
      })
    )

    /** Keeps the first pair written: two processes starting at once end up with the same one. */
    const keepKeys = operation(
      "push.keepKeys",
      SqlSchema.void({
        Request: Schema.Struct({ publicKey: Schema.String, privateKeySealed: Schema.String, now: Schema.String }),
        execute: (row) => sql`INSERT INTO push_keys (id, public_key, private_key_sealed, created_at)
          VALUES (1, ${row.publicKey}, ${row.privateKeySealed}, ${row.now}) ON CONFLICT (id) DO NOTHING`
      })
    )

    /** Inserts, or updates the row of the same person and endpoint (its id and creation kept). */
    const upsert = operation(
      "push.upsert",
      SqlSchema.single({
        Request: Written,
        Result: PushSubscription,
        execute: (row) => sql`INSERT INTO push_subscriptions
          (id, being_id, endpoint, p256dh, auth, device, created_at, updated_at)
          VALUES (${row.id}, ${row.beingId}, ${row.endpoint}, ${row.p256dh}, ${row.auth}, ${row.device}, ${row.now},
            ${row.now})
          ON CONFLICT (being_id, endpoint) DO UPDATE SET p256dh = excluded.p256dh, auth = excluded.auth,
            device = excluded.device, updated_at = excluded.updated_at
          RETURNING ${viewColumns}`
      })
    )

    const has = operation(
      "push.has",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, endpoint: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ beingId, endpoint }) =>
          sql`SELECT id FROM push_subscriptions WHERE being_id = ${beingId} AND endpoint = ${endpoint}`
      })
    )

    const count = operation(
      "push.count",
      SqlSchema.single({
        Request: Schema.String,
        Result: Schema.Struct({ n: Schema.Union(Schema.Number, Schema.NumberFromString) }),
        execute: (beingId) => sql`SELECT COUNT(*) AS n FROM push_subscriptions WHERE being_id = ${beingId}`
      })
    )

    const list = operation(
      "push.list",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: PushSubscription,
        execute: (beingId) =>
          sql`SELECT ${viewColumns} FROM push_subscriptions WHERE being_id = ${beingId} ORDER BY created_at, id`
      })
    )

    const targets = operation(
      "push.targets",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Target,
        execute: (beingId) => sql`SELECT ${targetColumns} FROM push_subscriptions WHERE being_id = ${beingId}`
      })
    )

    /** The subscription as it is now (a retry sends to the keys of the latest subscribe), if still there. */
    const target = operation(
      "push.target",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Target,
        execute: (id) => sql`SELECT ${targetColumns} FROM push_subscriptions WHERE id = ${id}`
      })
    )

    /** Deletes the person's own subscription; false when they have none of that id. */
    const remove = fnNamed("push.remove")(function* (owned: typeof Owned.Type) {
      const rows = yield* operation(
        "push.remove",
        SqlSchema.findAll({
          Request: Owned,
          Result: Schema.Struct({ id: Schema.String }),
          execute: ({ beingId, id }) =>
            sql`DELETE FROM push_subscriptions WHERE id = ${id} AND being_id = ${beingId} RETURNING id`
        })
      )(owned)
      return rows.length > 0
    })

    /** What a push service said is gone (404, 410). */
    const forget = operation(
      "push.forget",
      SqlSchema.void({ Request: Schema.String, execute: (id) => sql`DELETE FROM push_subscriptions WHERE id = ${id}` })
    )

    return {
      keys,
      keepKeys,
      // RETURNING and COUNT answer one row always.
      upsert: (row: typeof Written.Type) => Effect.orDie(upsert(row)),
      has,
      count: (beingId: string) => Effect.orDie(count(beingId)),
      list,
      targets,
      target,
      remove,
      forget
    } as const
  })
}) {}
