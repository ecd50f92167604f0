/**
 * Generators contributed by plugins: each declared in a plugin's manifest with the body the
 * studio's generators take, decoded and checked here by the same rules (its skills must be the
 * node's built-in catalogue or its own plugin's skills). It has no row: it lives while its plugin
 * is installed, under the id `<namespace>.<id>` (which no stored generator's id or slug can be,
 * having no dot), public and free, marked with its plugin. A declaration that fails is left out
 * of every list with one log line, the rest of the plugin still loading.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { LoadedContributionsShape } from "../../kernel/extensions/registry.ts"
import { GeneratorInput, type Generator } from "./contract/generator.ts"
import { builtinSkillCatalogue } from "./skill-catalogue.ts"
import { validateGenerator } from "./validation.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** A plugin's generator, less the caller's run count. */
export type PluginGenerator = Omit<Generator, "runs">

/** A slug for links (`notebook-weekly-review`); the id `<namespace>.<id>` finds it too. */
const slugOf = (name: string) =>
  name
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)

const decode = Schema.decodeUnknownEither(GeneratorInput)

/**
 * Every plugin generator that passes, in install order; `leftOut` logs each failing one (once per caller's choosing).
 */
export const pluginGenerators = (
  host: LoadedContributionsShape,
  leftOut: (name: string, reason: string) => Effect.Effect<void>
): Effect.Effect<ReadonlyArray<PluginGenerator>> =>
  Effect.gen(function* () {
    const builtins = yield* builtinSkillCatalogue(host)
    const plugins = new Map((yield* host.installed).map((plugin) => [plugin.id, plugin]))
    const skills = host.registries.skill.list()
    const found: Array<PluginGenerator> = []
    for (const contribution of host.registries.generator.list()) {
      const plugin = plugins.get(contribution.pluginId)
      if (plugin === undefined || plugin.status !== "active") continue
      const body = { ...contribution.value.generator }
      delete body.slug
      const decoded = decode(body, { errors: "all", onExcessProperty: "error" })
      if (Either.isLeft(decoded)) {
        yield* leftOut(contribution.name, ParseResult.TreeFormatter.formatErrorSync(decoded.left).slice(0, 300))
        continue
      }
      const catalogue = new Set([
        ...builtins,
        ...skills.filter((skill) => skill.pluginId === plugin.id).map((skill) => skill.name)
      ])
      const problem = validateGenerator(decoded.right, catalogue)
      if (problem !== null) {
        yield* leftOut(contribution.name, problem.message)
        continue
      }
      const input = decoded.right
      found.push({
        id: contribution.name,
        ownerId: `plugin:${plugin.id}`,
        slug: slugOf(contribution.name),
        name: input.name,
        description: input.description,
        icon: input.icon,
        inputsSchema: input.inputsSchema,
        steps: input.steps,
        outputKinds: input.outputKinds,
        priceCredits: 0,
        isPublic: true,
        createdAt: new Date(0).toISOString(),
        plugin: { id: plugin.id, name: plugin.name }
      })
    }
    return found
  }).pipe(spanNamed("generators.pluginGenerators"))
