/**
 * The sandbox's own settings (docs/operations.md lists each with its default): which tier runs
 * python and sh, whether the owner lets code run unsandboxed when that tier is unavailable, and
 * the image the docker tier runs.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { flag, settingsLayer } from "../../kernel/settings.ts"

export const sandboxTierSettings = ["auto", "nova", "docker"] as const

export const sandboxSettingsConfig = Config.all({
  /** auto: nova when the probe says it isolates, else docker when an engine answers, else none. */
  sandboxRuntime: Config.literal(...sandboxTierSettings)("SVC_SANDBOX_RUNTIME").pipe(
    Config.withDefault("auto" as const)
  ),
  /** Run code unsandboxed when the chosen tier is unavailable; off, such a run is refused. */
  sandboxAllowLocal: flag("SVC_SANDBOX_ALLOW_LOCAL"),
  /** The image the docker tier runs python and sh in. */
  sandboxDockerImage: Config.string("SVC_SANDBOX_DOCKER_IMAGE").pipe(Config.withDefault("python:3.12-slim"))
})

export type SandboxSettingsShape = Config.Config.Success<typeof sandboxSettingsConfig>

export class SandboxSettings extends Context.Tag("host/SandboxSettings")<SandboxSettings, SandboxSettingsShape>() {
  static readonly layer = (overrides?: Partial<SandboxSettingsShape>) =>
    settingsLayer(SandboxSettings, sandboxSettingsConfig, overrides)
}
