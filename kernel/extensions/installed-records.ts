/**
 * What the owner is shown of each plugin the host holds: its manifest's facts, whether it loaded,
 * what it was granted and what it contributes (the contract's InstalledPlugin). Apart from the
 * host because it is a plain description of what was loaded, built the same way at boot, at
 * install and when another process's change is followed.
 */
import * as Either from "effect/Either"
import type { CapabilityKind } from "../contract/capabilities.ts"
import type { PluginManifest, PluginSource } from "../contract/manifest.ts"
import type { InstalledContribution, InstalledPlugin } from "../contract/plugins.ts"
import type { StoredPlugin } from "./plugins-repository.ts"
import type { AnyContribution } from "./registry.ts"

export const contributionsOf = (contributions: ReadonlyArray<AnyContribution>): Array<InstalledContribution> =>
  contributions.map((contribution) => {
    const { kind, name, declaration } = contribution
    const framed =
      contribution.kind === "module" ||
      contribution.kind === "widget" ||
      contribution.kind === "viewer" ||
      contribution.kind === "editor"
    const icon = framed ? contribution.value.icon : null
    const fileTypes =
      contribution.kind === "viewer" || contribution.kind === "editor" ? contribution.value.fileTypes : undefined
    return {
      kind,
      name,
      ...(declaration.title === undefined ? {} : { title: declaration.title }),
      ...(icon === null ? {} : { icon }),
      ...(fileTypes === undefined ? {} : { fileTypes }),
      ...(contribution.kind === "skill" ? { worldActing: contribution.declaration.uses.includes("world-acting") } : {})
    }
  })

export const recordOf = (
  manifest: PluginManifest,
  source: PluginSource,
  granted: ReadonlyArray<CapabilityKind>,
  outcome: Either.Either<ReadonlyArray<AnyContribution>, { readonly message: string }>
): InstalledPlugin => ({
  id: manifest.id,
  name: manifest.name,
  description: manifest.description,
  version: manifest.version,
  namespace: manifest.namespace,
  source,
  status: Either.isRight(outcome) ? "active" : "error",
  error: Either.isLeft(outcome) ? outcome.left.message : null,
  capabilities: manifest.capabilities,
  granted,
  contributions: Either.isRight(outcome) ? contributionsOf(outcome.right) : []
})

/** For a stored plugin whose manifest no longer decodes: enough to list it and let the owner remove it. */
export const recordOfUnreadableRow = (row: StoredPlugin, error: string): InstalledPlugin => ({
  id: row.id,
  name: row.id,
  description: "",
  version: row.version,
  namespace: row.namespace,
  source: row.source,
  status: "error",
  error,
  capabilities: [],
  granted: row.granted,
  contributions: []
})
