/**
 * `federation_directory_entries` (this node as a directory: who listed which handle, until when),
 * `federation_directory_grants` (the dids it granted registration credits, once each) and `federation_directory_client`
 * (this node registered with a directory: one row, the
 * directory's did pinned at the first registration that held).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"

export const DirectoryEntryRow = Schema.Struct({
  handle: Schema.String,
  did: Schema.String,
  endpoint: Schema.String,
  registeredAt: Schema.String,
  expiresAt: Schema.String
})
export type DirectoryEntryRow = typeof DirectoryEntryRow.Type

export const StoredDirectoryState = Schema.Struct({
  endpoint: Schema.NullOr(Schema.String),
  directoryDid: Schema.NullOr(Schema.String),
  advertisedEndpoint: Schema.NullOr(Schema.String),
  handles: Schema.NullOr(JsonColumn(Schema.Array(Schema.String))),
  registeredAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  creditsClaimed: Schema.Number
})
export type StoredDirectoryState = typeof StoredDirectoryState.Type

export const noDirectoryState: StoredDirectoryState = {
  endpoint: null,
  directoryDid: null,
  advertisedEndpoint: null,
  handles: null,
  registeredAt: null,
  expiresAt: null,
  lastError: null,
  creditsClaimed: 0
}

export class DirectoryRepository extends Effect.Service<DirectoryRepository>()("federation/DirectoryRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findEntry = operation(
      "federation.directoryEntry",
      SqlSchema.findOne({
        Request: Schema.Struct({ handle: Schema.String, at: Schema.String }),
        Result: DirectoryEntryRow,
        execute: ({ at, handle }) =>
          sql`SELECT handle, did, endpoint, registered_at AS "registeredAt", expires_at AS "expiresAt" FROM federation_directory_entries
          WHERE handle = ${handle} AND expires_at > ${at}`
      })
    )

    const takenHandles = SqlSchema.findAll({
      Request: Schema.Struct({ did: Schema.String, at: Schema.String, handles: Schema.Array(Schema.String) }),
      Result: Schema.Struct({ handle: Schema.String }),
      execute: ({ at, did, handles }) =>
        sql`SELECT handle FROM federation_directory_entries
          WHERE did <> ${did} AND expires_at > ${at} AND ${sql.in("handle", handles.length === 0 ? [""] : handles)}`
    })

    /** Records a did's registration credits; a row back only when this call granted them (the insert is the guard). */
    const grant = SqlSchema.findAll({
      Request: Schema.Struct({ did: Schema.String, credits: Schema.Int, at: Schema.String }),
      Result: Schema.Struct({ did: Schema.String }),
      execute: ({ at, credits, did }) =>
        sql`INSERT INTO federation_directory_grants (did, credits, granted_at) VALUES (${did}, ${credits}, ${at})
          ON CONFLICT (did) DO NOTHING RETURNING did`
    })

    /**
     * Lists a node's handles in one transaction: its old ones go, each new one is taken unless a
     * running entry of another node holds it (answered as the handles taken, nothing written).
     * `credits` are granted with it when the did was never granted any (answered as `granted`).
     */
    const register = operation(
      "federation.directoryRegister",
      (input: {
        readonly did: string
        readonly endpoint: string
        readonly handles: ReadonlyArray<string>
        readonly at: string
        readonly expiresAt: string
        readonly credits: number
      }) =>
        sql.withTransaction(
          Effect.gen(function* () {
            const taken = yield* takenHandles(input)
            if (taken.length > 0) return { taken: taken.map((row) => row.handle), granted: 0 }
            yield* sql`DELETE FROM federation_directory_entries WHERE did = ${input.did} OR expires_at <= ${input.at}`
            for (const handle of input.handles) {
              yield* sql`INSERT INTO federation_directory_entries ${sql.insert({
                handle,
                did: input.did,
                endpoint: input.endpoint,
                registered_at: input.at,
                expires_at: input.expiresAt
              })}`
            }
            const granted =
              input.credits > 0 && (yield* grant({ did: input.did, credits: input.credits, at: input.at })).length > 0
            return { taken: [] as Array<string>, granted: granted ? input.credits : 0 }
          })
        )
    )

    const findRow = SqlSchema.findOne({
      Request: Schema.Void,
      Result: StoredDirectoryState,
      execute: () =>
        sql`SELECT endpoint, directory_did AS "directoryDid", advertised_endpoint AS "advertisedEndpoint", handles, registered_at AS "registeredAt",
          expires_at AS "expiresAt", last_error AS "lastError", credits_claimed AS "creditsClaimed" FROM federation_directory_client WHERE id = 'directory'`
    })
    const state = operation("federation.directoryState", () =>
      Effect.map(
        findRow(undefined),
        Option.getOrElse(() => noDirectoryState)
      )
    )

    const save = operation("federation.saveDirectoryState", (row: StoredDirectoryState) => {
      const fields = {
        endpoint: row.endpoint,
        directory_did: row.directoryDid,
        advertised_endpoint: row.advertisedEndpoint,
        handles: row.handles === null ? null : JSON.stringify(row.handles),
        registered_at: row.registeredAt,
        expires_at: row.expiresAt,
        last_error: row.lastError,
        credits_claimed: row.creditsClaimed
      }
      return sql`INSERT INTO federation_directory_client ${sql.insert({ id: "directory", ...fields })}
        ON CONFLICT (id) DO UPDATE SET ${sql.update(fields)}`.pipe(Effect.asVoid)
    })

    return { findEntry, register, state, save } as const
  })
}) {}
