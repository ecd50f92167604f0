/**
 * The federation's settings (docs/operations.md lists each): the largest document the public
 * wire routes read (their body limit, and the figure the capability profile announces); whether
 * this node runs as a relay for nodes that enrol with it; the relay this node itself is
 * reached through (no route sets it: docs/federation.md "The relay"); the directory this node
 * registers with, and whether this node runs as a directory itself (docs/federation.md "The directory"),
 * with the credits it grants a node's first registration.
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { flag, optionalString, settingsLayer } from "../../kernel/settings.ts"
import { DEFAULT_MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES_SETTING } from "./contract/api.ts"
import { MAX_REGISTRATION_CREDITS } from "./contract/directory.ts"

const isHttpUrl = (url: string) => URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)

export const federationSettingsConfig = Config.all({
  maxDocumentBytes: Config.integer(MAX_DOCUMENT_BYTES_SETTING).pipe(
    Config.withDefault(DEFAULT_MAX_DOCUMENT_BYTES),
    Config.validate({
      message: `${MAX_DOCUMENT_BYTES_SETTING} must be a whole number of bytes, at least 4096`,
      validation: (n) => n >= 4096
    })
  ),
  relayOn: flag("FEDERATION_RELAY"),
  relayMaxQueued: Config.integer("FEDERATION_RELAY_MAX_QUEUED").pipe(
    Config.withDefault(256),
    Config.validate({
      message: "FEDERATION_RELAY_MAX_QUEUED must be a whole number from 1 to 10000",
      validation: (n) => n >= 1 && n <= 10_000
    })
  ),
  relayEndpoint: optionalString("SVC_RELAY_ENDPOINT").pipe(
    Config.validate({
      message: "SVC_RELAY_ENDPOINT must be an http or https URL",
      validation: (url) => Option.isNone(url) || isHttpUrl(url.value)
    })
  ),
  directoryEndpoint: optionalString("DIRECTORY_ENDPOINT").pipe(
    Config.validate({
      message: "DIRECTORY_ENDPOINT must be an http or https URL",
      validation: (url) => Option.isNone(url) || isHttpUrl(url.value)
    })
  ),
  directoryOn: flag("FEDERATION_DIRECTORY"),
  directoryRegistrationCredits: Config.integer("DIRECTORY_REGISTRATION_CREDITS").pipe(
    Config.withDefault(100),
    Config.validate({
      message: `DIRECTORY_REGISTRATION_CREDITS must be a whole number from 0 to ${MAX_REGISTRATION_CREDITS}`,
      validation: (n) => n >= 0 && n <= MAX_REGISTRATION_CREDITS
    })
  )
})

export type FederationSettingsShape = Config.Config.Success<typeof federationSettingsConfig>

export class FederationSettings extends Context.Tag("federation/FederationSettings")<
  FederationSettings,
  FederationSettingsShape
>() {
  static readonly layer = (overrides?: Partial<FederationSettingsShape>) =>
    settingsLayer(FederationSettings, federationSettingsConfig, overrides)
}
