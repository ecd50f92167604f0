/**
 * The owner's model providers (`llm_providers`, the key as its sealed envelope), the last check of
 * every provider, the environment's and the built-in one too (`llm_provider_checks`), and the
 * tiers bound in Settings (`llm_tier_bindings`). Nothing here opens a key.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { ModelTier } from "./contract/records.ts"

export const StoredProvider = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  baseUrl: Schema.String,
  /** The key's sealed envelope. */
  sealedKey: Schema.NullOr(Schema.String)
})
export type StoredProvider = typeof StoredProvider.Type

export const StoredCheck = Schema.Struct({
  providerId: Schema.String,
  models: Schema.NullOr(JsonColumn(Schema.Array(Schema.String))),
  checkedAt: Schema.String,
  error: Schema.NullOr(Schema.String)
})
export type StoredCheck = typeof StoredCheck.Type

export const StoredTier = Schema.Struct({ tier: ModelTier, providerId: Schema.String, model: Schema.String })
export type StoredTier = typeof StoredTier.Type

export class ProvidersRepository extends Effect.Service<ProvidersRepository>()("models/ProvidersRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const providers = operation(
      "models.listProviders",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredProvider,
        execute: () => sql`SELECT id, name, base_url AS "baseUrl", api_key AS "sealedKey" FROM llm_providers
          ORDER BY created_at, id`
      })
    )

    const saveProvider = operation(
      "models.saveProvider",
      SqlSchema.void({
        Request: Schema.Struct({ ...StoredProvider.fields, at: Schema.String }),
        execute: (row) => sql`INSERT INTO llm_providers (id, name, base_url, api_key, created_at, updated_at)
          VALUES (${row.id}, ${row.name}, ${row.baseUrl}, ${row.sealedKey}, ${row.at}, ${row.at})
          ON CONFLICT (id) DO UPDATE SET name = excluded.name, base_url = excluded.base_url,
            api_key = excluded.api_key, updated_at = excluded.updated_at`
      })
    )

    const removeProvider = operation(
      "models.removeProvider",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM llm_providers WHERE id = ${id}`
      })
    )

    const checks = operation(
      "models.listChecks",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredCheck,
        execute: () => sql`SELECT provider_id AS "providerId", models, checked_at AS "checkedAt", error
          FROM llm_provider_checks`
      })
    )

    const saveCheck = operation(
      "models.saveCheck",
      SqlSchema.void({
        Request: Schema.Struct({
          providerId: Schema.String,
          models: Schema.NullOr(Schema.String),
          checkedAt: Schema.String,
          error: Schema.NullOr(Schema.String)
        }),
        execute: (row) => sql`INSERT INTO llm_provider_checks (provider_id, models, checked_at, error)
          VALUES (${row.providerId}, ${row.models}, ${row.checkedAt}, ${row.error})
          ON CONFLICT (provider_id) DO UPDATE SET models = excluded.models, checked_at = excluded.checked_at,
            error = excluded.error`
      })
    )

    const forgetCheck = operation(
      "models.forgetCheck",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM llm_provider_checks WHERE provider_id = ${id}`
      })
    )

    const tiers = operation(
      "models.listTierBindings",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredTier,
        execute: () => sql`SELECT tier, provider_id AS "providerId", model FROM llm_tier_bindings`
      })
    )

    const bindTier = operation(
      "models.bindTier",
      SqlSchema.void({
        Request: Schema.Struct({ ...StoredTier.fields, at: Schema.String }),
        execute: (row) => sql`INSERT INTO llm_tier_bindings (tier, provider_id, model, updated_at)
          VALUES (${row.tier}, ${row.providerId}, ${row.model}, ${row.at})
          ON CONFLICT (tier) DO UPDATE SET provider_id = excluded.provider_id, model = excluded.model,
            updated_at = excluded.updated_at`
      })
    )

    const unbindTier = operation(
      "models.unbindTier",
      SqlSchema.void({
        Request: ModelTier,
        execute: (tier) => sql`DELETE FROM llm_tier_bindings WHERE tier = ${tier}`
      })
    )

    return {
      providers: providers(undefined),
      saveProvider,
      removeProvider,
      checks: checks(undefined),
      saveCheck,
      forgetCheck,
      tiers: tiers(undefined),
      bindTier,
      unbindTier
    } as const
  })
}) {}
