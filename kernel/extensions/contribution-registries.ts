/**
 * The contribution registries as a service of their own, apart from the extension host that
 * writes them. The host is built over the features (its capability adapters call them: the
 * `memory` adapter the twin's memories), so a feature that only reads what plugins contribute
 * (the twin's plugin providers and their syncs) must not ask for the host: that made a cycle,
 * once broken at run time by binding the twin's list after the host was built. Split out, every
 * dependency points one way: registries ← features ← extension host (which writes into these).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeRegistries, type Registries, type RegistryWriter } from "./registry.ts"

/** What every plugin contributes, by kind, read-only: what features read. */
export class Contributions extends Context.Tag("kernel/Contributions")<Contributions, Registries>() {}

/** The same registries' writer: only the extension host takes it (ExtensionHostOptions.registries). */
export class ContributionsWriter extends Context.Tag("kernel/ContributionsWriter")<ContributionsWriter, RegistryWriter>() {}

/** One set of registries for the node: its reader and its writer. */
export const contributionRegistriesLayer = Layer.effectContext(
  Effect.sync(() => {
    const writer = makeRegistries()
    return Context.make(ContributionsWriter, writer).pipe(Context.add(Contributions, writer.registries))
  })
)
