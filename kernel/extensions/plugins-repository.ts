/**
 * The `plugins` table (see migrations.ts): one row per installed plugin with its grants. The
 * manifest is kept as it was validated at install, so the listing can still name a plugin whose
 * folder has since gone bad.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { CapabilityKind } from "../contract/capabilities.ts"
import { PluginManifest, PluginSource } from "../contract/manifest.ts"
import { PluginStatus } from "../contract/plugins.ts"
import { JsonColumn, operation } from "../repository.ts"

const ManifestColumn = JsonColumn(PluginManifest)
const readManifest = Schema.decodeUnknownOption(ManifestColumn)

/**
 * A stored manifest that no longer decodes (the schema moved on since the install) reads as None
 * instead of failing the whole listing: the host still lists the plugin, in error, so the owner
 * can remove it. Only read: writes go through `ManifestColumn`.
 */
const StoredManifest = Schema.transform(Schema.Unknown, Schema.OptionFromSelf(Schema.typeSchema(PluginManifest)), {
  strict: true,
  decode: (stored) => readManifest(stored),
  encode: (manifest) => Option.getOrNull(Option.map(manifest, Schema.encodeSync(ManifestColumn)))
})

const StoredPlugin = Schema.Struct({
  id: Schema.String,
  namespace: Schema.String,
  version: Schema.String,
  source: JsonColumn(PluginSource),
  manifest: StoredManifest,
  granted: JsonColumn(Schema.Array(CapabilityKind)),
  status: PluginStatus,
  error: Schema.NullOr(Schema.String),
  installedAt: Schema.String
})
export type StoredPlugin = typeof StoredPlugin.Type

const NewPlugin = Schema.Struct({ ...StoredPlugin.fields, manifest: ManifestColumn })

const PluginState = Schema.Struct({
  id: Schema.String,
  version: Schema.String,
  /** Null keeps the stored manifest (the folder could not be read again). */
  manifest: Schema.NullOr(ManifestColumn),
  status: PluginStatus,
  error: Schema.NullOr(Schema.String)
})

export class PluginsRepository extends Effect.Service<PluginsRepository>()("kernel/PluginsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** In install order. */
    const list = operation(
      "plugins.list",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: StoredPlugin,
        execute:
          () => sql`SELECT id, namespace, version, source, manifest, granted, status, error, installed_at AS "installedAt"
        FROM plugins ORDER BY installed_at, id`
      })
    )

    const insert = operation(
      "plugins.insert",
      SqlSchema.void({
        Request: NewPlugin,
        execute: (row) =>
          sql`INSERT INTO plugins ${sql.insert({
            id: row.id,
            namespace: row.namespace,
            version: row.version,
            source: row.source,
            manifest: row.manifest,
            granted: row.granted,
            status: row.status,
            error: row.error,
            installed_at: row.installedAt
          })}`
      })
    )

    /** What the last boot found: the version and manifest it loaded, or the reason it failed. */
    const setState = operation(
      "plugins.setState",
      SqlSchema.void({
        Request: PluginState,
        execute: (
          state
        ) => sql`UPDATE plugins SET version = ${state.version}, manifest = COALESCE(${state.manifest}, manifest),
        status = ${state.status}, error = ${state.error} WHERE id = ${state.id}`
      })
    )

    const remove = operation(
      "plugins.remove",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM plugins WHERE id = ${id}`
      })
    )

    return { list: list(undefined), insert, setState, remove } as const
  })
}) {}
