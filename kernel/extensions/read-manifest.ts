/**
 * Reading a plugin's manifest from its folder. This only reads and decodes `plugin.json`: no
 * plugin code is resolved or imported, so an install can be refused before anything runs.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readFile, stat } from "node:fs/promises"
import { join } from "node:path"
import { InvalidManifest } from "../contract/plugin-errors.ts"
import { ManifestFile } from "./manifest.ts"

/** Not `manifest.json` (a web app manifest) nor `package.json` (npm's): a plugin may ship both. */
export const manifestFileName = "plugin.json"

const maxManifestBytes = 256 * 1024

const invalid = (message: string, details?: unknown) =>
  new InvalidManifest({ message, ...(details === undefined ? {} : { details }) })

const invalidManifest = (label: string) => (error: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message
  }))
  const first = issues[0]
  const where = first === undefined || first.path === "" ? "" : `${first.path}: `
  return invalid(`${label} is not a valid manifest: ${where}${first?.message ?? "unreadable"}`, { issues })
}

export const decodeManifest = (input: unknown, label: string = manifestFileName) =>
  Schema.decodeUnknown(ManifestFile)(input, { errors: "all" }).pipe(Effect.mapError(invalidManifest(label)))

/** The same decoding, at once: the manifest's schema is synchronous, so code outside an Effect checks one with it. */
export const decodeManifestEither = (input: unknown, label: string = manifestFileName) =>
  Either.mapLeft(Schema.decodeUnknownEither(ManifestFile)(input, { errors: "all" }), invalidManifest(label))

export const readManifest = (dir: string) =>
  Effect.gen(function* () {
    const file = join(dir, manifestFileName)
    const text = yield* Effect.tryPromise({
      try: async () => {
        const info = await stat(file)
        if (!info.isFile() || info.size > maxManifestBytes) throw new Error("not a readable file")
        return readFile(file, "utf8")
      },
      catch: () =>
        invalid(`The plugin folder has no readable ${manifestFileName} (at most ${maxManifestBytes / 1024} KB).`)
    })
    const json = yield* Effect.try({
      try: () => JSON.parse(text) as unknown,
      catch: (error) =>
        invalid(`${manifestFileName} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
    })
    return yield* decodeManifest(json)
  })
