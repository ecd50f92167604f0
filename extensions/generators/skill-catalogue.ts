/**
 * The built-in skill catalogue that generator steps may name: every skill of the node's own
 * plugins, less the three the spec keeps outside the list (`docs.write_pdf`, `http.json`, and
 * `studio.author_module`, which no generator may declare). A
 * third-party plugin's skill is not in it, so a shared generator runs on any node.
 */
import * as Effect from "effect/Effect"
import type { LoadedContributionsShape } from "../../kernel/extensions/registry.ts"

export const outsideCatalogue: ReadonlySet<string> = new Set(["docs.write_pdf", "http.json", "studio.author_module"])

export const builtinSkillCatalogue = (host: LoadedContributionsShape): Effect.Effect<ReadonlySet<string>> =>
  Effect.map(
    host.installed,
    (plugins) =>
      new Set(
        plugins
          .filter((plugin) => plugin.source.kind === "builtin" && plugin.status === "active")
          .flatMap((plugin) => plugin.contributions)
          .filter((contribution) => contribution.kind === "skill" && !outsideCatalogue.has(contribution.name))
          .map((contribution) => contribution.name)
      )
  )
