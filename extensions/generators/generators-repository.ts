/**
 * The `generators` table. A generator's `runs` is how often the caller ran it, counted from the
 * caller's own projects (never others' activity), so every read names the caller.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, JsonColumn, operation } from "../../kernel/repository.ts"
import { Generator, GeneratorSummary } from "./contract/generator.ts"
import { SYSTEM_OWNER } from "./contract/generator.ts"

const json = {
  inputsSchema: JsonColumn(Generator.fields.inputsSchema),
  /** Stored with every default filled; decoded on read, so a field added later gets its default. */
  steps: JsonColumn(Generator.fields.steps),
  outputKinds: JsonColumn(Generator.fields.outputKinds)
}

const StoredGenerator = Schema.Struct({ ...Generator.fields, ...json, isPublic: BooleanColumn })
const StoredSummary = Schema.Struct({ ...GeneratorSummary.fields, outputKinds: json.outputKinds })

/** What a write sets: the record less its owner, run count and date. */
const Fields = StoredGenerator.pick(
  "id",
  "name",
  "slug",
  "description",
  "icon",
  "inputsSchema",
  "steps",
  "outputKinds",
  "priceCredits",
  "isPublic"
)
const Seed = Schema.Struct({ ...Fields.fields, createdAt: Schema.String })
const NewGenerator = Schema.Struct({ ...Seed.fields, ownerId: Schema.String })

const Reading = Schema.Struct({ callerId: Schema.String, idOrSlug: Schema.String })

export class GeneratorsRepository extends Effect.Service<GeneratorsRepository>()("generators/GeneratorsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const runsBy = (callerId: string) =>
      sql`(SELECT CAST(COUNT(*) AS INTEGER) FROM projects
        WHERE projects.generator_id = generators.id AND projects.owner_id = ${callerId}) AS runs`
    const columns = (callerId: string) => sql`id, owner_id AS "ownerId", name, slug, description, icon,
      inputs_schema AS "inputsSchema", steps, output_kinds AS "outputKinds", price_credits AS "priceCredits",
      is_public AS "isPublic", ${runsBy(callerId)}, created_at AS "createdAt"`

    const findById = operation(
      "generators.findById",
      SqlSchema.findOne({
        Request: Reading,
        Result: StoredGenerator,
        execute: ({ callerId, idOrSlug }) => sql`SELECT ${columns(callerId)} FROM generators WHERE id = ${idOrSlug}`
      })
    )

    /** By id, else by slug. */
    const findByIdOrSlug = operation(
      "generators.findByIdOrSlug",
      SqlSchema.findOne({
        Request: Reading,
        Result: StoredGenerator,
        execute: ({ callerId, idOrSlug }) => sql`SELECT ${columns(callerId)} FROM generators
        WHERE id = ${idOrSlug} OR slug = ${idOrSlug} ORDER BY id = ${idOrSlug} DESC LIMIT 1`
      })
    )

    /** Public generators and the caller's own: the caller's first, then by name. */
    const listVisibleTo = operation(
      "generators.listVisibleTo",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredSummary,
        execute: (
          callerId
        ) => sql`SELECT id, owner_id AS "ownerId", name, slug, description, icon, output_kinds AS "outputKinds",
          ${runsBy(callerId)}
        FROM generators WHERE is_public = 1 OR owner_id = ${callerId}
        ORDER BY owner_id = ${callerId} DESC, lower(name), id`
      })
    )

    /** The generators holding `base` or a numbered `base-<n>` as their slug. */
    const slugsLike = operation(
      "generators.slugsLike",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String, slug: Schema.String }),
        execute: (base) =>
          sql.onDialectOrElse({
            // Slugs are lowercase letters, digits and hyphens: `base-…` are the slugs from `base-` up to `base.`
            // (the next character), a range the slug's unique index answers; SQLite's LIKE reads every row.
            sqlite: () =>
              sql`SELECT id, slug FROM generators WHERE slug = ${base} OR (slug >= ${`${base}-`} AND slug < ${`${base}.`})`,
            orElse: () => sql`SELECT id, slug FROM generators WHERE slug = ${base} OR slug LIKE ${`${base}-%`}`
          })
      })
    )

    const insert = operation(
      "generators.insert",
      SqlSchema.void({
        Request: NewGenerator,
        execute: (
          row
        ) => sql`INSERT INTO generators (id, owner_id, name, slug, description, icon, inputs_schema, steps, output_kinds,
          price_credits, is_public, created_at)
        VALUES (${row.id}, ${row.ownerId}, ${row.name}, ${row.slug}, ${row.description}, ${row.icon}, ${row.inputsSchema},
          ${row.steps}, ${row.outputKinds}, ${row.priceCredits}, ${row.isPublic}, ${row.createdAt})`
      })
    )

    const update = operation(
      "generators.update",
      SqlSchema.void({
        Request: Fields,
        execute: (
          row
        ) => sql`UPDATE generators SET name = ${row.name}, slug = ${row.slug}, description = ${row.description},
        icon = ${row.icon}, inputs_schema = ${row.inputsSchema}, steps = ${row.steps}, output_kinds = ${row.outputKinds},
        price_credits = ${row.priceCredits}, is_public = ${row.isPublic} WHERE id = ${row.id}`
      })
    )

    const remove = operation(
      "generators.remove",
      SqlSchema.void({
        Request: Schema.String,
        execute: (id) => sql`DELETE FROM generators WHERE id = ${id}`
      })
    )

    /**
     * Writes one seeded generator by its slug, keeping the id and createdAt of an existing row.
     * Nothing is written when the slug belongs to a being's generator: then no row comes back.
     */
    const upsertSeed = operation(
      "generators.upsertSeed",
      SqlSchema.findAll({
        Request: Seed,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (row) => sql`INSERT INTO generators (id, owner_id, name, slug, description, icon, inputs_schema, steps,
          output_kinds, price_credits, is_public, created_at)
        VALUES (${row.id}, ${SYSTEM_OWNER}, ${row.name}, ${row.slug}, ${row.description}, ${row.icon}, ${row.inputsSchema},
          ${row.steps}, ${row.outputKinds}, ${row.priceCredits}, ${row.isPublic}, ${row.createdAt})
        ON CONFLICT (slug) DO UPDATE SET name = excluded.name, description = excluded.description, icon = excluded.icon,
          inputs_schema = excluded.inputs_schema, steps = excluded.steps, output_kinds = excluded.output_kinds,
          price_credits = excluded.price_credits, is_public = excluded.is_public
        WHERE generators.owner_id = ${SYSTEM_OWNER}
        RETURNING id`
      })
    )

    /** How often `callerId` ran the generator `generatorId` (a plugin's, which has no row here). */
    const runsOf = operation(
      "generators.runsOf",
      SqlSchema.findAll({
        Request: Schema.Struct({ callerId: Schema.String, generatorId: Schema.String }),
        Result: Schema.Struct({ runs: Schema.Int }),
        execute: ({ callerId, generatorId }) => sql`SELECT CAST(COUNT(*) AS INTEGER) AS runs FROM projects
        WHERE generator_id = ${generatorId} AND owner_id = ${callerId}`
      })
    )

    return { runsOf, findById, findByIdOrSlug, listVisibleTo, slugsLike, insert, update, remove, upsertSeed } as const
  })
}) {}
