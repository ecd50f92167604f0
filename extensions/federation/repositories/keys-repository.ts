/**
 * `federation_keys`: the node's Ed25519 key and each being's, secrets as base64url seeds (why
 * they are not sealed with ENCRYPTION_KEY: docs/federation.md "Keys at rest"). Inserts never
 * overwrite: two starts racing to make the node key keep the first, and both read it back.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

export const StoredKey = Schema.Struct({
  did: Schema.String,
  beingId: Schema.NullOr(Schema.String),
  secret: Schema.NullOr(Schema.String)
})
export type StoredKey = typeof StoredKey.Type

/** A being's key with the handle its passport names, and its being's kind (a seed's key has no secret). */
export const BeingKey = Schema.Struct({ ...StoredKey.fields, handle: Schema.String, kind: Schema.String })

const NewKey = Schema.Struct({ did: Schema.String, secret: Schema.String, createdAt: Schema.String })

export class KeysRepository extends Effect.Service<KeysRepository>()("federation/KeysRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findNode = operation(
      "federation.findNodeKey",
      SqlSchema.findOne({
        Request: Schema.Void,
        Result: StoredKey,
        execute: () => sql`SELECT did, being_id AS "beingId", secret FROM federation_keys WHERE role = 'node'`
      })
    )

    const findByBeing = operation(
      "federation.findBeingKey",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: BeingKey,
        execute: (
          beingId
        ) => sql`SELECT k.did, k.being_id AS "beingId", k.secret, b.handle, b.kind FROM federation_keys k
        JOIN beings b ON b.id = k.being_id WHERE k.being_id = ${beingId}`
      })
    )

    const findBeingByDid = operation(
      "federation.findBeingByDid",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: BeingKey,
        execute: (did) => sql`SELECT k.did, k.being_id AS "beingId", k.secret, b.handle, b.kind FROM federation_keys k
        JOIN beings b ON b.id = k.being_id WHERE k.did = ${did}`
      })
    )

    /** Writes the node's key unless it has one already. */
    const insertNode = operation(
      "federation.insertNodeKey",
      SqlSchema.void({
        Request: NewKey,
        execute: (key) => sql`INSERT INTO federation_keys (did, role, being_id, secret, created_at)
        VALUES (${key.did}, 'node', NULL, ${key.secret}, ${key.createdAt}) ON CONFLICT DO NOTHING`
      })
    )

    /** Writes a being's key unless it has one already; nothing when there is no such being. */
    const insertForBeing = operation(
      "federation.insertBeingKey",
      SqlSchema.void({
        Request: Schema.Struct({ ...NewKey.fields, beingId: Schema.String }),
        execute: (key) => sql`INSERT INTO federation_keys (did, role, being_id, secret, created_at)
        SELECT ${key.did}, 'being', id, ${key.secret}, ${key.createdAt} FROM beings WHERE id = ${key.beingId}
        ON CONFLICT DO NOTHING`
      })
    )

    /** A seed's key: its own did, whose secret only the device holds; nothing when that did has a row already. */
    const insertSeedKey = operation(
      "federation.insertSeedKey",
      SqlSchema.void({
        Request: Schema.Struct({ did: Schema.String, beingId: Schema.String, createdAt: Schema.String }),
        execute: (key) => sql`INSERT INTO federation_keys (did, role, being_id, secret, created_at)
        VALUES (${key.did}, 'being', ${key.beingId}, NULL, ${key.createdAt}) ON CONFLICT DO NOTHING`
      })
    )

    /**
     * Beings that have no key yet: every one that existed before federation, and any made since that none asked for.
     */
    const beingsWithoutKey = operation(
      "federation.beingsWithoutKey",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: Schema.Struct({ id: Schema.String }),
        execute: () =>
          sql`SELECT b.id FROM beings b LEFT JOIN federation_keys k ON k.being_id = b.id WHERE k.did IS NULL`
      })
    )

    return {
      findNode,
      findByBeing,
      findBeingByDid,
      insertNode,
      insertForBeing,
      insertSeedKey,
      beingsWithoutKey
    } as const
  })
}) {}
