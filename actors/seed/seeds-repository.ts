/** `federation_seeds`: the devices the owner paired, as the SeedPairing record plus the nonce each must carry next. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { SeedGrant, SeedPairing } from "../../extensions/federation/contract/seeds.ts"

/** A pairing as the actor keeps it: the record and the nonce the next document must carry. */
export const StoredSeed = Schema.Struct({
  ...SeedPairing.fields,
  grants: JsonColumn(Schema.Array(SeedGrant)),
  nonce: Schema.String
})
export type StoredSeed = typeof StoredSeed.Type

const columns = `did, being_id AS "beingId", name, profile, grants, status, seq, nonce, beats, acts, refused,
  paired_at AS "pairedAt", last_seen_at AS "lastSeenAt", last_note AS "lastNote", last_error AS "lastError"`

const row = (seed: StoredSeed) => ({
  did: seed.did,
  being_id: seed.beingId,
  name: seed.name,
  profile: seed.profile,
  grants: JSON.stringify(seed.grants),
  status: seed.status,
  seq: seed.seq,
  nonce: seed.nonce,
  beats: seed.beats,
  acts: seed.acts,
  refused: seed.refused,
  paired_at: seed.pairedAt,
  last_seen_at: seed.lastSeenAt,
  last_note: seed.lastNote,
  last_error: seed.lastError
})

/** The record as the owner sees it: never the nonce. */
export const pairingOf = ({ nonce: _, ...pairing }: StoredSeed): SeedPairing => pairing

export class SeedsRepository extends Effect.Service<SeedsRepository>()("seed/SeedsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const list = operation(
      "federation.listSeeds",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredSeed,
        execute: () => sql`SELECT ${all} FROM federation_seeds ORDER BY paired_at, did`
      })
    )

    const find = operation(
      "federation.findSeed",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredSeed,
        execute: (did) => sql`SELECT ${all} FROM federation_seeds WHERE did = ${did}`
      })
    )

    /** Pairs a seed; false when that did is paired already. */
    const insert = operation("federation.insertSeed", (seed: StoredSeed) =>
      Effect.map(
        sql`INSERT INTO federation_seeds ${sql.insert(row(seed))} ON CONFLICT (did) DO NOTHING RETURNING did`,
        (rows) => rows.length === 1
      )
    )

    /** Writes the whole row as the seed actor decided it. */
    const save = operation("federation.saveSeed", (seed: StoredSeed) => {
      const { did: _, ...fields } = row(seed)
      return sql`UPDATE federation_seeds SET ${sql.update(fields)} WHERE did = ${seed.did}`.pipe(Effect.asVoid)
    })

    /** Unpairs a seed; the being it was paired with, when there was one. */
    const remove = operation(
      "federation.removeSeed",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ beingId: Schema.String }),
        execute: (did) => sql`DELETE FROM federation_seeds WHERE did = ${did} RETURNING being_id AS "beingId"`
      })
    )

    return { list, find, insert, save, remove } as const
  })
}) {}
