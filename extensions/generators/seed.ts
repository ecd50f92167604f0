/**
 * The seeded catalogue at boot: each generator is decoded and validated, then upserted by slug
 * (owner 'system', id, runs and createdAt kept), so a second boot changes nothing and an edited
 * seed is restored from the code. A seed that does not decode or validate is our own bug: the
 * boot fails, naming it. A member's generator that already holds a seed's slug is left alone.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { generatorCatalogue } from "../../seeds/generators/index.ts"
import { GeneratorInput, type GeneratorSeed } from "./contract/generator.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { Generators } from "./contract/generators.ts"
import { GeneratorsService } from "./generators.ts"
import { spanNamed } from "../../kernel/spans.ts"

const broken = (slug: string, why: string) => new Error(`The seeded generator "${slug}" is broken: ${why}`)

export const seedGenerators = (seeds: ReadonlyArray<GeneratorSeed>) =>
  Effect.gen(function* () {
    const generators = yield* Generators
    const slugs = new Set<string>()
    for (const seed of seeds) {
      if (slugs.has(seed.slug)) return yield* Effect.die(broken(seed.slug, "two seeds share its slug"))
      slugs.add(seed.slug)
      const input = yield* Schema.decodeUnknown(GeneratorInput)(seed).pipe(
        Effect.orDieWith((error) => broken(seed.slug, ParseResult.TreeFormatter.formatErrorSync(error)))
      )
      yield* generators
        .check(input)
        .pipe(Effect.orDieWith((refusal) => broken(seed.slug, `${refusal.error}: ${refusal.message}`)))
      const written = yield* generators.upsertSeed(seed.slug, input)
      if (!written)
        yield* Effect.logWarning(`The seeded generator "${seed.slug}" was skipped: a being's generator holds its slug.`)
    }
  }).pipe(spanNamed("generators.seed"))

/**
 * The generators feature: the service, with the seeded catalogue upserted (and checked) as it is
 * built. The seeds are checked against the built-ins' skills, so they wait for the extension host
 * to have loaded them (the service itself reads only the loaded contributions).
 */
export const GeneratorsLive = Layer.effectDiscard(
  Effect.zipRight(ExtensionHost, seedGenerators(generatorCatalogue))
).pipe(Layer.provideMerge(GeneratorsService))
