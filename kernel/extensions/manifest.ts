/**
 * A manifest as read from a plugin (its `plugin.json`, or a built-in's `manifest` export): the
 * contract's manifest with its versions checked as semver (the contract, which the web app
 * bundles, carries no semver). Decoding is the whole of validation that needs no context; every
 * later rule (reserved namespaces, clashes, grants, the host version) lives in install-rules.ts.
 */
import * as Schema from "effect/Schema"
import validVersion from "semver/functions/valid.js"
import validRange from "semver/ranges/valid.js"
import { manifestFields, manifestRules } from "../contract/manifest.ts"

const SemverVersion = Schema.String.pipe(
  Schema.filter(
    (value) =>
      (/^\d/.test(value) && validVersion(value) !== null) ||
      `version must be semver (e.g. "1.2.0"), got ${JSON.stringify(value)}`
  )
)

/** A bare version means "this version or newer"; anything else is a semver range. */
const HostVersionRequirement = Schema.String.pipe(
  Schema.filter(
    (value) =>
      validRange(value) !== null || `minHostVersion must be a semver version or range, got ${JSON.stringify(value)}`
  )
)

export const ManifestFile = Schema.Struct({
  ...manifestFields,
  version: SemverVersion,
  minHostVersion: Schema.optionalWith(Schema.NullOr(HostVersionRequirement), { default: () => null })
}).pipe(Schema.filter(manifestRules), Schema.annotations({ identifier: "PluginManifest" }))
