/**
 * Generators: list, read, create, replace, delete, and the checks every write and every run goes
 * through. A generator is readable when it is public, the caller's own, or the caller is the
 * world owner; it is writable by its owner and by the world owner. The seeded catalogue belongs
 * to 'system' and is restored from the code at every boot (seed.ts).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { LoadedContributions } from "../../kernel/extensions/registry.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { nowIso } from "../../kernel/time.ts"
import type { Caller } from "../accounts/contract/session.ts"
import {
  GeneratorNotFound,
  GeneratorNotYours,
  GeneratorPrivate,
  GeneratorSlugTaken,
  generatorInvalid
} from "./contract/errors.ts"
import type { Generator, GeneratorInput, GeneratorPlugin, GeneratorSummary } from "./contract/generator.ts"
import { Generators, type GeneratorsShape } from "./contract/generators.ts"
import { checkInputs } from "./input-form.ts"
import { pluginGenerators } from "./plugin-generators.ts"
import { GeneratorsRepository } from "./generators-repository.ts"
import { builtinSkillCatalogue } from "./skill-catalogue.ts"
import { freeSlug, slugify } from "./slug.ts"
import { validateGenerator, type GeneratorDefinition } from "./validation.ts"
import { spanNamed } from "../../kernel/spans.ts"

const newId = () => randomBytes(12).toString("base64url")

const slugTaken = (slug: string) =>
  new GeneratorSlugTaken({
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

const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const repository = yield* GeneratorsRepository
  // What the extension host loaded, not the host itself: the host's `storage` adapter writes through this service.
  const extensions = yield* LoadedContributions

  /** The plugin generators left out, each logged once. */
  const loggedOut = new Set<string>()
  const leftOut = (name: string, reason: string) =>
    Effect.suspend(() => {
      if (loggedOut.has(`${name}:${reason}`)) return Effect.void
      loggedOut.add(`${name}:${reason}`)
      return Effect.logWarning(`plugin generator ${name} is left out: ${reason}`)
    })
  const fromPlugins = pluginGenerators(extensions, leftOut)

  /** A plugin generator by id or slug, with the caller's run count. */
  const pluginGenerator = (caller: Caller, idOrSlug: string) =>
    Effect.gen(function* () {
      const found = (yield* fromPlugins).find((generator) => generator.id === idOrSlug || generator.slug === idOrSlug)
      if (found === undefined) return Option.none<Generator>()
      return Option.some<Generator>({ ...found, runs: yield* runsOf(caller, found.id) })
    })

  const runsOf = (caller: Caller, generatorId: string) =>
    Effect.map(repository.runsOf({ callerId: caller.beingId, generatorId }), (rows) => rows[0]?.runs ?? 0)

  /**
   * The spec's validation against the built-in catalogue: before every create, edit and run. A
   * plugin's generator may also name its own plugin's skills.
   */
  const check = (generator: GeneratorDefinition & { readonly plugin?: GeneratorPlugin | undefined }) =>
    Effect.flatMap(builtinSkillCatalogue(extensions), (builtins) => {
      const plugin = generator.plugin
      const catalogue =
        plugin === undefined
          ? builtins
          : new Set([
              ...builtins,
              ...extensions.registries.skill
                .list()
                .filter((skill) => skill.pluginId === plugin.id)
                .map((skill) => skill.name)
            ])
      const problem = validateGenerator(generator, catalogue)
      return problem === null
        ? Effect.void
        : Effect.fail(new generatorInvalid[problem.code]({ message: problem.message, details: problem.details }))
    })

  const byId = (caller: Caller, id: string) =>
    Effect.flatMap(
      repository.findById({ callerId: caller.beingId, idOrSlug: id }),
      Option.match({
        onNone: () =>
          Effect.fail(new GeneratorNotFound({ message: "There is no generator with that id.", details: { id } })),
        onSome: (generator): Effect.Effect<Generator> => Effect.succeed(generator)
      })
    )

  const writable = (caller: Caller, id: string) =>
    Effect.flatMap(byId(caller, id), (generator) =>
      generator.ownerId === caller.beingId || caller.isOwner
        ? Effect.succeed(generator)
        : Effect.fail(
            new GeneratorNotYours({
              message: "Only the generator's owner or the owner of this node can change it.",
              details: { id }
            })
          )
    )

  /** A supplied slug must be free; a derived one is made free. `self` is the generator being replaced. */
  const resolveSlug = (input: GeneratorInput, fallback: string | null, self: string | null) =>
    Effect.gen(function* () {
      const wanted = input.slug ?? fallback
      const holders = (yield* repository.slugsLike(wanted ?? slugify(input.name))).filter(
        (holder) => holder.id !== self
      )
      if (wanted === null) return freeSlug(slugify(input.name), new Set(holders.map((holder) => holder.slug)))
      if (holders.some((holder) => holder.slug === wanted)) return yield* Effect.fail(slugTaken(wanted))
      return wanted
    })

  /** Public generators and the caller's own: the caller's first, then by name; runs are the caller's. */
  /** Then the plugins' generators, in install order, each marked with its plugin. */
  const list = (caller: Caller) =>
    Effect.gen(function* () {
      const stored = yield* repository.listVisibleTo(caller.beingId)
      const plugged = yield* Effect.forEach(
        yield* fromPlugins,
        (generator): Effect.Effect<GeneratorSummary> =>
          Effect.map(runsOf(caller, generator.id), (runs) => ({
            id: generator.id,
            ownerId: generator.ownerId,
            name: generator.name,
            slug: generator.slug,
            description: generator.description,
            icon: generator.icon,
            outputKinds: generator.outputKinds,
            runs,
            plugin: generator.plugin
          }))
      )
      return [...stored, ...plugged]
    }).pipe(spanNamed("generators.list"))

  /** By id, else by slug. */
  const find = (caller: Caller, idOrSlug: string) =>
    Effect.gen(function* () {
      const plugged = yield* pluginGenerator(caller, idOrSlug)
      if (Option.isSome(plugged)) return plugged.value
      const found = yield* repository.findByIdOrSlug({ callerId: caller.beingId, idOrSlug })
      if (Option.isNone(found)) {
        return yield* Effect.fail(
          new GeneratorNotFound({ message: "There is no generator with that id or slug.", details: { idOrSlug } })
        )
      }
      const generator: Generator = found.value
      if (!generator.isPublic && generator.ownerId !== caller.beingId && !caller.isOwner) {
        return yield* Effect.fail(
          new GeneratorPrivate({ message: "That generator is private to its owner.", details: { idOrSlug } })
        )
      }
      return generator
    }).pipe(spanNamed("generators.find"))

  /**
   * Answers the record it wrote (a new generator has no runs yet), not a read of it. Inside a caller's transaction (a
   * buy's copy) the slug and the row go with that transaction; else in one of their own.
   */
  const create = (caller: Caller, input: GeneratorInput) =>
    Effect.gen(function* () {
      yield* check(input)
      const id = newId()
      const createdAt = yield* nowIso
      const write = Effect.flatMap(resolveSlug(input, null, null), (slug) =>
        Effect.as(repository.insert({ ...fieldsOf(id, slug, input), ownerId: caller.beingId, createdAt }), slug)
      )
      const outer = yield* Effect.serviceOption(SqlClient.TransactionConnection)
      const slug = yield* (Option.isSome(outer) ? write : sql.withTransaction(write)).pipe(orDieOnStorageFault)
      const created: Generator = { ...fieldsOf(id, slug, input), ownerId: caller.beingId, runs: 0, createdAt }
      return created
    }).pipe(spanNamed("generators.create"))

  /** PUT: the whole editable record; a body without a slug keeps the current one, so links hold. */
  const replace = (caller: Caller, id: string, input: GeneratorInput) =>
    Effect.gen(function* () {
      const current = yield* writable(caller, id)
      yield* check(input)
      yield* sql
        .withTransaction(
          Effect.flatMap(resolveSlug(input, current.slug, id), (slug) => repository.update(fieldsOf(id, slug, input)))
        )
        .pipe(orDieOnStorageFault)
      return yield* byId(caller, id)
    }).pipe(spanNamed("generators.replace"))

  const remove = (caller: Caller, id: string) =>
    Effect.flatMap(writable(caller, id), () => repository.remove(id)).pipe(spanNamed("generators.remove"))

  /**
   * Writes one seeded generator by its slug, keeping id and createdAt of an existing row.
   * False when the slug belongs to a being's generator, which is left alone.
   */
  const upsertSeed = (slug: string, input: GeneratorInput) =>
    Effect.gen(function* () {
      const written = yield* repository.upsertSeed({ ...fieldsOf(newId(), slug, input), createdAt: yield* nowIso })
      return written.length === 1
    }).pipe(spanNamed("generators.upsertSeed"))

  return {
    check,
    list,
    find,
    create,
    replace,
    remove,
    upsertSeed,
    checkInputs: (generator, inputs) => checkInputs(generator.inputsSchema, inputs),
    stored: (callerId, id) => repository.findById({ callerId, idOrSlug: id })
  } satisfies GeneratorsShape
})

/** The generators feature's service over its repository; it reads the loaded contributions. */
export const GeneratorsService = Layer.effect(Generators, make).pipe(Layer.provide(GeneratorsRepository.Default))
