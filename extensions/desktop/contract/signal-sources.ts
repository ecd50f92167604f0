/**
 * Who a plugin's signal says raised it, and on whose desktop it lands: shared by every capability
 * that raises for a plugin (signals, schedules, memory). A built-in acts for the call (its being,
 * the project as source inside one); any other plugin for the owner (null: the owner), as itself.
 * Third-party plugins never get the studio's source: one a plugin could forge would let it pass for the studio.
 */

/** The plugin as far as its signals' source goes. */
export interface SignalPlugin {
  readonly id: string
}

/** The call a plugin's adapter was built for, as far as where its signals land goes. */
export interface SignalCall {
  readonly beingId: string | null
  readonly projectId: string | null
}

export const pluginSource = (plugin: SignalPlugin): string => `plugin:${plugin.id}`

export const studioSource = (projectId: string): string => `studio:${projectId}`

export const callTarget = (builtinIds: ReadonlySet<string>, plugin: SignalPlugin, scope: SignalCall) => {
  const builtin = builtinIds.has(plugin.id)
  return {
    builtin,
    source: builtin && scope.projectId !== null ? studioSource(scope.projectId) : pluginSource(plugin),
    beingId: builtin ? scope.beingId : null
  }
}
