/**
 * Generators: list, read, create, replace, delete, and the checks every write and every run goes
 * through. A generator is readable when it is public, the caller's own, or the caller is the
 * world owner; it is writable by its owner and by the world owner. The seeded catalogue belongs
 * to 'system' and is restored from the code at every boot (seed.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { dieOnSqlError } from "../../kernel/database.ts"
import { Forbidden, InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../../host/auth/contract/session.ts"
import type { Generator, GeneratorInput, GeneratorSummary } from "./contract/generator.ts"
import { SYSTEM_OWNER } from "./contract/generator.ts"
import { builtinSkillCatalogue } from "./skill-catalogue.ts"
import { freeSlug, slugify } from "./slug.ts"
import { GeneratorStep, type OutputKind } from "./contract/step.ts"
import { validateGenerator, type GeneratorDefinition } from "./validation.ts"

interface GeneratorRow {
  readonly id: string
  readonly ownerId: string
  readonly name: string
  readonly slug: string
  readonly description: string
  readonly icon: string
  readonly inputsSchema: string
  readonly steps: string
  readonly outputKinds: string
  readonly priceCredits: number
  readonly isPublic: number
  readonly runs: number
  readonly createdAt: string
}

const Steps = Schema.Array(GeneratorStep)
/** Stored with every default filled; decoded on read so a field added later gets its default. */
const encodeSteps = (steps: GeneratorInput["steps"]) => JSON.stringify(Schema.encodeSync(Steps)(steps))
const decodeSteps = Schema.decodeUnknownSync(Schema.parseJson(Steps))

const toGenerator = (row: GeneratorRow): Generator => ({
  ...row,
  inputsSchema: JSON.parse(row.inputsSchema) as Record<string, unknown>,
  steps: decodeSteps(row.steps),
  outputKinds: JSON.parse(row.outputKinds) as Array<OutputKind>,
  isPublic: row.isPublic === 1
})

const newId = () => randomBytes(12).toString("base64url")

const slugTaken = (slug: string) =>
  new InvalidRequest({
    error: "generator_duplicate_slug",
    message: `Another generator has the slug "${slug}"; slugs must be unique. Pick another, or leave it out to derive a free one from the name.`,
    details: { rule: "unique", slug }
  })

export class Generators extends Effect.Service<Generators>()("studio/Generators", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const extensions = yield* ExtensionHost
    /**
     * How often the caller ran the generator: their own runs only, so a count never tells one
     * member about another's activity. The `runs` column stays the node-wide tally.
     */
    const runsOf = (caller: Caller) =>
      sql`(SELECT count(*) FROM projects WHERE projects.generator_id = generators.id AND projects.owner_id = ${caller.beingId}) AS runs`
    const columns = (caller: Caller) => sql`id, owner_id AS ownerId, name, slug, description, icon, inputs_schema AS inputsSchema, steps,
      output_kinds AS outputKinds, price_credits AS priceCredits, is_public AS isPublic, ${runsOf(caller)}, created_at AS createdAt`

    /** The spec's validation against the built-in catalogue: before every create, edit and run. */
    const check = (generator: GeneratorDefinition) =>
      Effect.flatMap(builtinSkillCatalogue(extensions), (catalogue) => {
        const problem = validateGenerator(generator, catalogue)
        return problem === null ? Effect.void : Effect.fail(new InvalidRequest({ error: problem.code, message: problem.message, details: problem.details }))
      })

    const byId = (caller: Caller, id: string) =>
      Effect.flatMap(sql<GeneratorRow>`SELECT ${columns(caller)} FROM generators WHERE id = ${id}`, (rows) =>
        rows[0] === undefined
          ? Effect.fail(new NotFound({ message: "There is no generator with that id.", details: { id } }))
          : Effect.succeed(rows[0]))

    const writable = (caller: Caller, id: string) =>
      Effect.flatMap(byId(caller, id), (row) =>
        row.ownerId === caller.beingId || caller.isOwner
          ? Effect.succeed(row)
          : Effect.fail(new Forbidden({ message: "Only the generator's owner or the owner of this node can change it.", details: { id } })))

    /** A supplied slug must be free; a derived one is made free. `self` is the row being replaced. */
    const resolveSlug = (input: GeneratorInput, fallback: string | null, self: string | null) =>
      Effect.gen(function* () {
        const wanted = input.slug ?? fallback
        if (wanted !== null) {
          const holders = yield* sql<{ id: string }>`SELECT id FROM generators WHERE slug = ${wanted}`
          if (holders.some((holder) => holder.id !== self)) return yield* Effect.fail(slugTaken(wanted))
          return wanted
        }
        const base = slugify(input.name)
        const taken = yield* sql<{ slug: string }>`SELECT slug FROM generators
          WHERE (slug = ${base} OR slug LIKE ${`${base}-%`}) AND id IS NOT ${self}`
        return freeSlug(base, new Set(taken.map((row) => row.slug)))
      })

    const fieldsOf = (input: GeneratorInput) => ({
      name: input.name,
      description: input.description,
      icon: input.icon,
      inputsSchema: JSON.stringify(input.inputsSchema),
      steps: encodeSteps(input.steps),
      outputKinds: JSON.stringify(input.outputKinds),
      priceCredits: input.priceCredits,
      isPublic: input.isPublic ? 1 : 0
    })

    const insert = (ownerId: string, slug: string, input: GeneratorInput) =>
      Effect.gen(function* () {
        const id = newId()
        const fields = fieldsOf(input)
        yield* sql`INSERT INTO generators (id, owner_id, name, slug, description, icon, inputs_schema, steps, output_kinds,
            price_credits, is_public, runs, created_at)
          VALUES (${id}, ${ownerId}, ${fields.name}, ${slug}, ${fields.description}, ${fields.icon}, ${fields.inputsSchema},
            ${fields.steps}, ${fields.outputKinds}, ${fields.priceCredits}, ${fields.isPublic}, 0, ${yield* nowIso})`
        return id
      })

    /** Public generators and the caller's own: the caller's first, then by name; runs are the caller's. */
    const list = (caller: Caller) =>
      sql<Omit<GeneratorSummary, "outputKinds"> & { readonly outputKinds: string }>`SELECT id, owner_id AS ownerId, name, slug, description, icon,
          output_kinds AS outputKinds, ${runsOf(caller)}
        FROM generators WHERE is_public = 1 OR owner_id = ${caller.beingId}
        ORDER BY owner_id = ${caller.beingId} DESC, name COLLATE NOCASE, id`.pipe(
        Effect.map((rows) => rows.map((row): GeneratorSummary => ({ ...row, outputKinds: JSON.parse(row.outputKinds) }))),
        dieOnSqlError,
        Effect.withSpan("Generators.list")
      )

    /** By id, else by slug. */
    const find = (caller: Caller, idOrSlug: string) =>
      Effect.gen(function* () {
        const rows = yield* sql<GeneratorRow>`SELECT ${columns(caller)} FROM generators WHERE id = ${idOrSlug} OR slug = ${idOrSlug}
          ORDER BY id = ${idOrSlug} DESC LIMIT 1`
        const row = rows[0]
        if (row === undefined) {
          return yield* Effect.fail(new NotFound({ message: "There is no generator with that id or slug.", details: { idOrSlug } }))
        }
        if (row.isPublic !== 1 && row.ownerId !== caller.beingId && !caller.isOwner) {
          return yield* Effect.fail(new Forbidden({ message: "That generator is private to its owner.", details: { idOrSlug } }))
        }
        return toGenerator(row)
      }).pipe(dieOnSqlError, Effect.withSpan("Generators.find"))

    const create = (caller: Caller, input: GeneratorInput) =>
      Effect.gen(function* () {
        yield* check(input)
        const id = yield* sql.withTransaction(
          Effect.flatMap(resolveSlug(input, null, null), (slug) => insert(caller.beingId, slug, input))
        )
        return toGenerator(yield* byId(caller, id))
      }).pipe(dieOnSqlError, Effect.withSpan("Generators.create"))

    /** PUT: the whole editable record; a body without a slug keeps the current one, so links hold. */
    const replace = (caller: Caller, id: string, input: GeneratorInput) =>
      Effect.gen(function* () {
        const current = yield* writable(caller, id)
        yield* check(input)
        yield* sql.withTransaction(Effect.gen(function* () {
          const slug = yield* resolveSlug(input, current.slug, id)
          const fields = fieldsOf(input)
          yield* sql`UPDATE generators SET name = ${fields.name}, slug = ${slug}, description = ${fields.description},
            icon = ${fields.icon}, inputs_schema = ${fields.inputsSchema}, steps = ${fields.steps},
            output_kinds = ${fields.outputKinds}, price_credits = ${fields.priceCredits}, is_public = ${fields.isPublic}
            WHERE id = ${id}`
        }))
        return toGenerator(yield* byId(caller, id))
      }).pipe(dieOnSqlError, Effect.withSpan("Generators.replace"))

    const remove = (caller: Caller, id: string) =>
      Effect.flatMap(writable(caller, id), () => sql`DELETE FROM generators WHERE id = ${id}`).pipe(
        Effect.asVoid,
        dieOnSqlError,
        Effect.withSpan("Generators.remove")
      )

    /** A run started from the generator: the run path counts it. */
    const countRun = (id: string) => sql`UPDATE generators SET runs = runs + 1 WHERE id = ${id}`.pipe(Effect.asVoid, dieOnSqlError)

    /**
     * Writes one seeded generator by its slug, keeping id, runs and createdAt of an existing row.
     * False when the slug belongs to a being's generator, which is left alone.
     */
    const upsertSeed = (slug: string, input: GeneratorInput) =>
      Effect.gen(function* () {
        const fields = fieldsOf(input)
        const written = yield* sql`INSERT INTO generators (id, owner_id, name, slug, description, icon, inputs_schema, steps,
            output_kinds, price_credits, is_public, runs, created_at)
          VALUES (${newId()}, ${SYSTEM_OWNER}, ${fields.name}, ${slug}, ${fields.description}, ${fields.icon},
            ${fields.inputsSchema}, ${fields.steps}, ${fields.outputKinds}, ${fields.priceCredits}, ${fields.isPublic}, 0, ${yield* nowIso})
          ON CONFLICT (slug) DO UPDATE SET name = excluded.name, description = excluded.description, icon = excluded.icon,
            inputs_schema = excluded.inputs_schema, steps = excluded.steps, output_kinds = excluded.output_kinds,
            price_credits = excluded.price_credits, is_public = excluded.is_public
          WHERE generators.owner_id = ${SYSTEM_OWNER}
          RETURNING id`
        return written.length === 1
      }).pipe(dieOnSqlError)

    return { check, list, find, create, replace, remove, countRun, upsertSeed } as const
  })
}) {}
