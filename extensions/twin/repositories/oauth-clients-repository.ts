/**
 * The `twin_oauth_clients` table: the OAuth client the owner set in Settings per plugin provider.
 * The sealed secret is read only by `sealedSecret`; the listing says only that one is stored.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

const Stored = Schema.Struct({ provider: Schema.String, clientId: Schema.String })

export class OAuthClientsRepository extends Effect.Service<OAuthClientsRepository>()("twin/OAuthClientsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const list = operation(
      "twin.listOAuthClients",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: Stored,
        execute: () => sql`SELECT provider, client_id AS "clientId" FROM twin_oauth_clients ORDER BY provider`
      })
    )

    const sealedSecret = operation(
      "twin.oauthClientSecret",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ clientId: Schema.String, secret: Schema.String }),
        execute: (provider) =>
          sql`SELECT client_id AS "clientId", secret FROM twin_oauth_clients WHERE provider = ${provider}`
      })
    )

    const save = operation(
      "twin.saveOAuthClient",
      SqlSchema.void({
        Request: Schema.Struct({
          provider: Schema.String,
          clientId: Schema.String,
          secret: Schema.String,
          at: Schema.String
        }),
        execute: ({
          provider,
          clientId,
          secret,
          at
        }) => sql`INSERT INTO twin_oauth_clients (provider, client_id, secret, updated_at)
        VALUES (${provider}, ${clientId}, ${secret}, ${at})
        ON CONFLICT (provider) DO UPDATE SET client_id = excluded.client_id, secret = excluded.secret, updated_at = excluded.updated_at`
      })
    )

    const remove = operation(
      "twin.removeOAuthClient",
      SqlSchema.void({
        Request: Schema.String,
        execute: (provider) => sql`DELETE FROM twin_oauth_clients WHERE provider = ${provider}`
      })
    )

    return { list: list(undefined), sealedSecret, save, remove } as const
  })
}) {}
