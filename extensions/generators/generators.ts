/**
 * Generators: list, read, create, replace, delete, and the checks every write and every run goes
 * through. A generator is readable when it is public, the caller's own, or the caller is the
 * world owner; it is writable by its owner and by the world owner. The seeded catalogue belongs
 * to 'system' and is restored from the code at every boot (seed.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { Forbidden, InvalidRequest, NotFound } from "../../kernel/contract/errors.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../../host/auth/contract/session.ts"
import type { Generator, GeneratorInput } from "./contract/generator.ts"
import { GeneratorsRepository } from "./generators-repository.ts"
import { builtinSkillCatalogue } from "./skill-catalogue.ts"
import { freeSlug, slugify } from "./slug.ts"
import { validateGenerator, type GeneratorDefinition } from "./validation.ts"

const newId = () => randomBytes(12).toString("base64url")

const slugTaken = (slug: string) =>
  new InvalidRequest({
    error: "generator_duplicate_slug",
    message: `Another generator has the slug "${slug}"; slugs must be unique. Pick another, or leave it out to derive a free one from the name.`,
    details: { rule: "unique", slug }
  })

/** What a write sets from a body, with its slug resolved. */
const fieldsOf = (id: string, slug: string, input: GeneratorInput) => ({
  id,
  slug,
  name: input.name,
  description: input.description,
  icon: input.icon,
  inputsSchema: input.inputsSchema,
  steps: input.steps,
  outputKinds: input.outputKinds,
  priceCredits: input.priceCredits,
  isPublic: input.isPublic
})

export class Generators extends Effect.Service<Generators>()("studio/Generators", {
  dependencies: [GeneratorsRepository.Default],
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const repository = yield* GeneratorsRepository
    const extensions = yield* ExtensionHost

    /** The spec's validation against the built-in catalogue: before every create, edit and run. */
    const check = (generator: GeneratorDefinition) =>
      Effect.flatMap(builtinSkillCatalogue(extensions), (catalogue) => {
        const problem = validateGenerator(generator, catalogue)
        return problem === null ? Effect.void : Effect.fail(new InvalidRequest({ error: problem.code, message: problem.message, details: problem.details }))
      })

    const byId = (caller: Caller, id: string) =>
      Effect.flatMap(repository.findById({ callerId: caller.beingId, idOrSlug: id }), Option.match({
        onNone: () => Effect.fail(new NotFound({ message: "There is no generator with that id.", details: { id } })),
        onSome: (generator): Effect.Effect<Generator> => Effect.succeed(generator)
      }))

    const writable = (caller: Caller, id: string) =>
      Effect.flatMap(byId(caller, id), (generator) =>
        generator.ownerId === caller.beingId || caller.isOwner
          ? Effect.succeed(generator)
          : Effect.fail(new Forbidden({ message: "Only the generator's owner or the owner of this node can change it.", details: { id } })))

    /** A supplied slug must be free; a derived one is made free. `self` is the generator being replaced. */
    const resolveSlug = (input: GeneratorInput, fallback: string | null, self: string | null) =>
      Effect.gen(function* () {
        const wanted = input.slug ?? fallback
        const holders = (yield* repository.slugsLike(wanted ?? slugify(input.name))).filter((holder) => holder.id !== self)
        if (wanted === null) return freeSlug(slugify(input.name), new Set(holders.map((holder) => holder.slug)))
        if (holders.some((holder) => holder.slug === wanted)) return yield* Effect.fail(slugTaken(wanted))
        return wanted
      })

    /** Public generators and the caller's own: the caller's first, then by name; runs are the caller's. */
    const list = (caller: Caller) => repository.listVisibleTo(caller.beingId).pipe(Effect.withSpan("generators.list"))

    /** By id, else by slug. */
    const find = (caller: Caller, idOrSlug: string) =>
      Effect.gen(function* () {
        const found = yield* repository.findByIdOrSlug({ callerId: caller.beingId, idOrSlug })
        if (Option.isNone(found)) {
          return yield* Effect.fail(new NotFound({ message: "There is no generator with that id or slug.", details: { idOrSlug } }))
        }
        const generator: Generator = found.value
        if (!generator.isPublic && generator.ownerId !== caller.beingId && !caller.isOwner) {
          return yield* Effect.fail(new Forbidden({ message: "That generator is private to its owner.", details: { idOrSlug } }))
        }
        return generator
      }).pipe(Effect.withSpan("generators.find"))

    const create = (caller: Caller, input: GeneratorInput) =>
      Effect.gen(function* () {
        yield* check(input)
        const id = newId()
        const createdAt = yield* nowIso
        yield* sql.withTransaction(
          Effect.flatMap(resolveSlug(input, null, null), (slug) =>
            repository.insert({ ...fieldsOf(id, slug, input), ownerId: caller.beingId, createdAt }))
        ).pipe(orDieOnStorageFault)
        return yield* byId(caller, id)
      }).pipe(Effect.withSpan("generators.create"))

    /** PUT: the whole editable record; a body without a slug keeps the current one, so links hold. */
    const replace = (caller: Caller, id: string, input: GeneratorInput) =>
      Effect.gen(function* () {
        const current = yield* writable(caller, id)
        yield* check(input)
        yield* sql.withTransaction(
          Effect.flatMap(resolveSlug(input, current.slug, id), (slug) => repository.update(fieldsOf(id, slug, input)))
        ).pipe(orDieOnStorageFault)
        return yield* byId(caller, id)
      }).pipe(Effect.withSpan("generators.replace"))

    const remove = (caller: Caller, id: string) =>
      Effect.flatMap(writable(caller, id), () => repository.remove(id)).pipe(Effect.withSpan("generators.remove"))

    /**
     * Writes one seeded generator by its slug, keeping id and createdAt of an existing row.
     * False when the slug belongs to a being's generator, which is left alone.
     */
    const upsertSeed = (slug: string, input: GeneratorInput) =>
      Effect.gen(function* () {
        const written = yield* repository.upsertSeed({ ...fieldsOf(newId(), slug, input), createdAt: yield* nowIso })
        return written.length === 1
      }).pipe(Effect.withSpan("generators.upsertSeed"))

    return { check, list, find, create, replace, remove, upsertSeed } as const
  })
}) {}
