/**
 * A third-party plugin folder, for tests only, whose one skill declares 'world-acting': what
 * proves the approval gate holds plugins too. Its skill counts its runs in a global the test
 * reads (plugin and test share the process), so a test can see whether it really ran; sending to
 * "nobody" fails.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"

export const worldActingSkill = "courier.send"

declare global {
  var courierRuns: Array<unknown> | undefined
}

/** What the plugin's skill has run with, in order. */
export const courierRuns = () => (globalThis.courierRuns ??= [])

/** The node's own ESM copy of effect/Schema, as a URL a plugin outside the node's tree can import. */
export const effectSchemaUrl = () => {
  const manifest = createRequire(import.meta.url).resolve("effect/package.json")
  const entry = JSON.parse(readFileSync(manifest, "utf8")).exports["./Schema"].import as string
  return pathToFileURL(join(dirname(manifest), entry)).href
}

export const writeWorldActingPlugin = (pluginDir: string, dir = "courier") => {
  mkdirSync(join(pluginDir, dir), { recursive: true })
  writeFileSync(
    join(pluginDir, dir, "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      id: "@test/courier",
      version: "1.0.0",
      namespace: "courier",
      name: "Courier",
      main: "index.js",
      capabilities: [{ kind: "world-acting", reason: "delivers messages to other people" }],
      extensions: [{ kind: "skill", id: "send", title: "Send a message", uses: ["world-acting"] }]
    })
  )
  // A plugin folder outside the node's tree cannot resolve "effect": it imports the node's own copy by URL.
  writeFileSync(
    join(pluginDir, dir, "index.js"),
    `import * as Schema from ${JSON.stringify(effectSchemaUrl())}
export const activate = (context) => context.contribute("skill", "send", {
  description: "Delivers a message (test plugin).",
  input: Schema.Struct({ to: Schema.String, text: Schema.String }),
  output: Schema.Struct({ delivered: Schema.Boolean, to: Schema.String }),
  run: async (input) => {
    if (input.to === "nobody") throw new Error("nobody is not a recipient")
    ;(globalThis.courierRuns ??= []).push(input)
    return { delivered: true, to: input.to }
  }
})
`
  )
  return dir
}
