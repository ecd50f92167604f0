/**
 * A third-party plugin folder, for tests only, whose one skill declares 'world-acting': what
 * proves the approval gate holds plugins too. It runs in its own isolate, so it notes each run in
 * its data folder (the `filesystem` capability) for a test to read whether it really ran; sending
 * to "nobody" fails.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

export const worldActingSkill = "courier.send"

/** The run logs of every courier written in this process (plugin folders sit in their node's data folder). */
const runLogs = new Set<string>()

/** What the plugin's skill has run with, in order. */
export const courierRuns = (): Array<unknown> =>
  [...runLogs].flatMap((log) =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as unknown)
      : []
  )

/** What a plugin imports its schemas from: the node bundles its own copy of effect for a plugin without one. */
export const effectSchemaUrl = () => "effect/Schema"

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
      capabilities: [
        { kind: "world-acting", reason: "delivers messages to other people" },
        { kind: "filesystem", reason: "keeps a log of what it sent" }
      ],
      extensions: [{ kind: "skill", id: "send", title: "Send a message", uses: ["world-acting", "filesystem"] }]
    })
  )
  writeFileSync(
    join(pluginDir, dir, "index.js"),
    `import * as Schema from ${JSON.stringify(effectSchemaUrl())}
export const activate = (context) => context.contribute("skill", "send", {
  description: "Delivers a message (test plugin).",
  input: Schema.Struct({ to: Schema.String, text: Schema.String }),
  output: Schema.Struct({ delivered: Schema.Boolean, to: Schema.String }),
  run: async (input, context) => {
    if (input.to === "nobody") throw new Error("nobody is not a recipient")
    await context.adapters.filesystem.write("runs.jsonl", JSON.stringify(input) + "\\n", { append: true })
    return { delivered: true, to: input.to }
  }
})
`
  )
  runLogs.add(join(dirname(pluginDir), "plugin-data", "courier", "runs.jsonl"))
  return dir
}
