/**
 * The files feature's settings: the upload body limit and the owner's own folder (the `user`
 * scope). docs/operations.md lists both with their defaults.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { optionalString, settingsLayer } from "../../kernel/settings.ts"
import { DEFAULT_MAX_UPLOAD_BYTES, MAX_UPLOAD_BYTES_SETTING } from "./contract/records.ts"

export const filesSettingsConfig = Config.all({
  /** Bytes of one upload request's whole body (every part and field). */
  maxUploadBytes: Config.integer(MAX_UPLOAD_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_UPLOAD_BYTES),
    Config.validate({
      message: "MAX_UPLOAD_BYTES must be a whole number of bytes, at least 1024",
      validation: (n) => n >= 1024
    })
  ),
  /** The owner's folder on this machine, served as the `user` scope; unset: the scope is empty. */
  filesRoot: optionalString("FILES_ROOT")
})

export type FilesSettingsShape = Config.Config.Success<typeof filesSettingsConfig>

export class FilesSettings extends Context.Tag("files/FilesSettings")<FilesSettings, FilesSettingsShape>() {
  static readonly layer = (overrides?: Partial<FilesSettingsShape>) =>
    settingsLayer(FilesSettings, filesSettingsConfig, overrides)
}
