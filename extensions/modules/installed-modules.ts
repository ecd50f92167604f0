/**
 * Finding an installed module (or widget, viewer, editor) by the plugin's id and the module's extension id, as both
 * module
 * routes name it: an unknown plugin, a plugin not active, or no module of that id are all 404,
 * so a caller learns nothing of what is installed beyond what GET /api/plugins shows.
 */
import * as Effect from "effect/Effect"
import type { CapabilityKind } from "../../kernel/contract/capabilities.ts"
import { ModuleNotFound } from "./contract/errors.ts"
import type { InstalledPlugin } from "../../kernel/contract/plugins.ts"
import type { ExtensionHostShape } from "../../kernel/extensions/host.ts"
import { contributionName, type Contribution } from "../../kernel/extensions/registry.ts"
import { framedKinds, type FramedKind } from "../../kernel/contract/plugin-kinds.ts"

export interface InstalledModule {
  readonly plugin: InstalledPlugin
  /** A module, or a widget, viewer or editor: each is a framed document that talks through the bridge. */
  readonly module: Contribution<FramedKind>
  /** What the module may use: its `uses` intersected with its plugin's grant. */
  readonly granted: ReadonlyArray<CapabilityKind>
}

export const findModule = (host: ExtensionHostShape, pluginId: string, extensionId: string) =>
  Effect.gen(function* () {
    const plugin = (yield* host.installed).find((record) => record.id === pluginId && record.status === "active")
    const name = plugin === undefined ? undefined : contributionName(plugin.namespace, extensionId)
    // Extension ids are unique within a plugin across kinds, so the id names one framed document.
    const module =
      name === undefined
        ? undefined
        : framedKinds
            .map((kind): Contribution<FramedKind> | undefined => host.registries[kind].get(name))
            .find((found) => found !== undefined)
    if (plugin === undefined || module === undefined || module.pluginId !== plugin.id) {
      return yield* new ModuleNotFound({
        message: `No module "${extensionId.slice(0, 64)}" of an installed plugin "${pluginId.slice(0, 214)}".`
      })
    }
    const granted = plugin.granted.filter((kind) => module.declaration.uses.includes(kind))
    return { plugin, module, granted } satisfies InstalledModule
  })
