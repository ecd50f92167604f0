/** The project actor's own settings, read once from the environment (docs/operations.md). */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { settingsLayer } from "../../kernel/settings.ts"

export const projectSettingsConfig = Config.all({
  /** Tasks of one studio project that run at once. */
  studioTaskConcurrency: Config.integer("STUDIO_TASK_CONCURRENCY").pipe(
    Config.withDefault(3),
    Config.validate({
      message: "STUDIO_TASK_CONCURRENCY must be a whole number of at least 1",
      validation: (n) => n >= 1
    })
  )
})

export type ProjectSettingsShape = Config.Config.Success<typeof projectSettingsConfig>

export class ProjectSettings extends Context.Tag("project/ProjectSettings")<ProjectSettings, ProjectSettingsShape>() {
  static readonly layer = (overrides?: Partial<ProjectSettingsShape>) =>
    settingsLayer(ProjectSettings, projectSettingsConfig, overrides)
}
