/**
 * The federation's settings: the largest document the public wire routes read (their body
 * limit, and the figure the capability profile announces), and the directory's address (only
 * read by the directory status so far: registering is a later issue). docs/operations.md lists them.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import { optionalString, settingsLayer } from "../../kernel/settings.ts"
import { DEFAULT_MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES_SETTING } from "./contract/api.ts"

export const federationSettingsConfig = Config.all({
  maxDocumentBytes: Config.integer(MAX_DOCUMENT_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_DOCUMENT_BYTES),
    Config.validate({ message: `${MAX_DOCUMENT_BYTES_SETTING} must be a whole number of bytes, at least 4096`, validation: (n) => n >= 4096 })
  ),
  directoryEndpoint: optionalString("DIRECTORY_ENDPOINT")
})

export type FederationSettingsShape = Config.Config.Success<typeof federationSettingsConfig>

export class FederationSettings extends Context.Tag("federation/FederationSettings")<FederationSettings, FederationSettingsShape>() {
  static readonly layer = (overrides?: Partial<FederationSettingsShape>) => settingsLayer(FederationSettings, federationSettingsConfig, overrides)
}
