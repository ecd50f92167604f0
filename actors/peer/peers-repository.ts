/** `federation_peers`: the nodes the owner added by hand, as the Peer record. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, isIn, JsonColumn, operation } from "../../kernel/repository.ts"
import { Peer } from "../../extensions/federation/contract/records.ts"

const StoredPeer = Schema.Struct({
  ...Peer.fields,
  serves: JsonColumn(Schema.Array(Schema.String)),
  publish: BooleanColumn
})

const columns = `node_did AS "nodeDid", endpoint, name, status, label, profile, software, serves, added_at AS "addedAt",
  verified_at AS "verifiedAt", last_seen_at AS "lastSeenAt", collected_at AS "collectedAt", relay, last_error AS "lastError", publish`

const row = (peer: Peer) => ({
  node_did: peer.nodeDid,
  endpoint: peer.endpoint,
  name: peer.name,
  status: peer.status,
  label: peer.label,
  profile: peer.profile,
  software: peer.software,
  serves: JSON.stringify(peer.serves),
  added_at: peer.addedAt,
  verified_at: peer.verifiedAt,
  last_seen_at: peer.lastSeenAt,
  collected_at: peer.collectedAt,
  relay: peer.relay,
  last_error: peer.lastError,
  publish: peer.publish ? 1 : 0
})

export class PeersRepository extends Effect.Service<PeersRepository>()("peer/PeersRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const list = operation(
      "federation.listPeers",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredPeer,
        execute: () => sql`SELECT ${all} FROM federation_peers ORDER BY added_at, node_did`
      })
    )

    /** A page of the peers, oldest first (the did breaks a tie). */
    const listPage = operation(
      "federation.listPeersPage",
      SqlSchema.findAll({
        Request: Schema.Struct({ limit: Schema.Int, offset: Schema.Int }),
        Result: StoredPeer,
        execute: ({ limit, offset }) =>
          sql`SELECT ${all} FROM federation_peers ORDER BY added_at, node_did LIMIT ${limit} OFFSET ${offset}`
      })
    )

    /** The peers of these dids that are there, in one statement (the peers named on a page of conversations). */
    const findMany = operation(
      "federation.findPeers",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: StoredPeer,
        execute: (nodeDids) => sql`SELECT ${all} FROM federation_peers WHERE ${isIn(sql, "node_did", nodeDids)}`
      })
    )

    const find = operation(
      "federation.findPeer",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredPeer,
        execute: (nodeDid) => sql`SELECT ${all} FROM federation_peers WHERE node_did = ${nodeDid}`
      })
    )

    /** Adds a peer; false when one with that did is there already. */
    const insert = operation("federation.insertPeer", (peer: Peer) =>
      Effect.map(
        sql`INSERT INTO federation_peers ${sql.insert(row(peer))} ON CONFLICT (node_did) DO NOTHING RETURNING node_did`,
        (rows) => rows.length === 1
      )
    )

    /** Writes the whole row as the peer actor decided it. */
    const save = operation("federation.savePeer", (peer: Peer) => {
      // collectedAt is the wire's to write (touchCollected): a save never turns it back.
      const { node_did: _, collected_at: __, ...fields } = row(peer)
      return sql`UPDATE federation_peers SET ${sql.update(fields)} WHERE node_did = ${peer.nodeDid}`
    })

    /**
     * Only when it was last seen: the wire routes write this outside the actor, so it touches
     * no column the actor decides.
     */
    const touch = operation("federation.touchPeer", (input: { readonly nodeDid: string; readonly at: string }) =>
      sql`UPDATE federation_peers SET last_seen_at = ${input.at} WHERE node_did = ${input.nodeDid}`.pipe(Effect.asVoid)
    )

    /** When it last collected from this node: like `touch`, a column the actor never decides. */
    const touchCollected = operation(
      "federation.touchPeerCollected",
      (input: { readonly nodeDid: string; readonly at: string }) =>
        sql`UPDATE federation_peers SET collected_at = ${input.at} WHERE node_did = ${input.nodeDid}`.pipe(
          Effect.asVoid
        )
    )

    /** Removes a peer; false when there was none. */
    const remove = operation("federation.removePeer", (nodeDid: string) =>
      Effect.map(
        sql`DELETE FROM federation_peers WHERE node_did = ${nodeDid} RETURNING node_did`,
        (rows) => rows.length === 1
      )
    )

    return { list, listPage, find, findMany, insert, save, touch, touchCollected, remove } as const
  })
}) {}
