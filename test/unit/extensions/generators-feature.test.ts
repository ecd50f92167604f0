/**
 * The generators feature alone: its layer over an in-memory SQLite and the extension host's
 * built-ins, no HTTP and no other feature. Building it seeds the catalogue, which the list shows.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { builtins } from "../../../host/builtins.ts"
import { migrations } from "../../../host/migrations.ts"
import { databaseLayer } from "../../../kernel/database.ts"
import { reservedNamespaces } from "../../../extensions/plugins/contract/reserved-namespaces.ts"
import { ExtensionHost } from "../../../kernel/extensions/host.ts"
import { Settings } from "../../../kernel/settings.ts"
import { Generators } from "../../../extensions/generators/contract/generators.ts"
import { contributionsLayer } from "../../../kernel/extensions/registry.ts"
import { GeneratorsLive } from "../../../extensions/generators/seed.ts"
import { SYSTEM_OWNER } from "../../../extensions/generators/contract/generator.ts"
import { generatorCatalogue } from "../../../seeds/generators/index.ts"

const feature = GeneratorsLive.pipe(
  Layer.provide(ExtensionHost.layer({ hostVersion: "0.1.0", builtins, adapters: {}, reservedNamespaces })),
  // The registry the host writes and the generators read.
  Layer.provide(contributionsLayer),
  Layer.provideMerge(databaseLayer(migrations, { filename: ":memory:" })),
  Layer.provide(Settings.layerWith({}))
)

describe("the generators feature on its own", () => {
  it.effect("seeds the catalogue as it is built and lists it to a member, with no runs of theirs", () =>
    Effect.gen(function* () {
      const generators = yield* Generators
      const listed = yield* generators.list({ beingId: "member-1", isOwner: false })
      expect(listed.map((summary) => summary.slug).sort()).toEqual(generatorCatalogue.map((seed) => seed.slug).sort())
      expect(listed.every((summary) => summary.ownerId === SYSTEM_OWNER && summary.runs === 0)).toBe(true)
      const first = generatorCatalogue[0]
      const found = yield* generators.find({ beingId: "member-1", isOwner: false }, first.slug)
      expect(found).toMatchObject({ name: first.name, isPublic: true })
      expect(found.steps.map((step) => step.id)).toEqual(first.steps.map((step) => step.id))
    }).pipe(Effect.provide(feature))
  )
})
