/**
 * The framed extras of the installed, active plugins, as the web app offers them: widgets for the
 * desktop's picker, viewers and editors for "Open with" on a file. Read from GET /api/plugins.
 */
import type { FileTypes } from "../../../kernel/contract/plugin-kinds.ts"
import type { InstalledPlugin } from "../../../kernel/contract/plugins.ts"

export interface FramedExtra {
  readonly kind: "widget" | "viewer" | "editor"
  /** `<namespace>.<id>`: a widget's type in the layout. */
  readonly name: string
  readonly title: string
  readonly pluginId: string
  readonly pluginName: string
  readonly extensionId: string
  readonly fileTypes: FileTypes | null
}

export const framedExtras = (plugins: ReadonlyArray<InstalledPlugin>): ReadonlyArray<FramedExtra> =>
  plugins
    .filter((plugin) => plugin.status === "active")
    .flatMap((plugin) =>
      plugin.contributions.flatMap(
        (contribution): Array<FramedExtra> =>
          contribution.kind === "widget" || contribution.kind === "viewer" || contribution.kind === "editor"
            ? [
                {
                  kind: contribution.kind,
                  name: contribution.name,
                  title: contribution.title ?? contribution.name,
                  pluginId: plugin.id,
                  pluginName: plugin.name,
                  extensionId: contribution.name.slice(plugin.namespace.length + 1),
                  fileTypes: contribution.fileTypes ?? null
                }
              ]
            : []
      )
    )
