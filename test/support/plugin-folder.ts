/**
 * A third-party plugin folder written for a test: `plugin.json` (its namespace from the folder's
 * name, every field overridable) and its `main`, as a plugin author writes them.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

export const writePluginFolder = (pluginDir: string, dir: string, manifest: Record<string, unknown>, main: string) => {
  mkdirSync(join(pluginDir, dir), { recursive: true })
  writeFileSync(
    join(pluginDir, dir, "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      id: `@test/${dir}`,
      version: "1.0.0",
      namespace: dir,
      name: dir,
      main: "index.js",
      capabilities: [],
      extensions: [],
      ...manifest
    })
  )
  writeFileSync(join(pluginDir, dir, "index.js"), main)
  return dir
}

/** A main contributing one skill per entry, each with the given `run` body (it sees `input` and `context`). */
export const skillsMain = (
  runs: Record<string, string>,
  options: { readonly timeoutMs?: number; readonly preamble?: string } = {}
) => `
import * as Schema from "effect/Schema"
${options.preamble ?? ""}
export const activate = (context) => {
${Object.entries(runs)
  .map(
    ([id, run]) => `  context.contribute("skill", ${JSON.stringify(id)}, {
    description: "A test skill.",
    input: Schema.Struct({ text: Schema.optional(Schema.String) }),
    output: Schema.Unknown,
    ${options.timeoutMs === undefined ? "" : `timeoutMs: ${options.timeoutMs},`}
    run: async (input, context) => { ${run} }
  })`
  )
  .join("\n")}
}
`

export const skillMain = (
  id: string,
  run: string,
  options: { readonly timeoutMs?: number; readonly preamble?: string } = {}
) => skillsMain({ [id]: run }, options)
