/**
 * Issue 14's plugin figures, at the skill runtime (the same `Skills.invoke` every caller goes
 * through, so HTTP's own cost does not hide the difference): one skill built in, beside the very
 * same skill installed as a third-party plugin and called through its isolate (aim: under 1 ms
 * added); and the isolate's cold start: an install from a plugin folder to an active plugin, beside
 * its bundling alone, and what a boot pays per plugin with its bundle cached.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { databaseLayer } from "../../kernel/database.ts"
import type { PluginModule } from "../../kernel/extensions/context.ts"
import { reservedNamespaces } from "../../extensions/plugins/contract/reserved-namespaces.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { contributionsLayer } from "../../kernel/extensions/registry.ts"
import { activatePlugin } from "../../kernel/extensions/activation.ts"
import { bundlePlugin } from "../../kernel/extensions/isolate/bundle.ts"
import { loadIsolated } from "../../kernel/extensions/isolate/plugin-isolate.ts"
import { pluginBundleCache } from "../../kernel/extensions/plugin-files.ts"
import { readManifest } from "../../kernel/extensions/read-manifest.ts"
import { pluginMigrations } from "../../kernel/extensions/migrations.ts"
import { defineSkill } from "../../kernel/extensions/skill.ts"
import { SkillApprovals, Skills } from "../../kernel/extensions/skills.ts"
import { Settings } from "../../kernel/settings.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const rounds = 300
const warmUp = 50
const installs = 8

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

const timed = async (times: number, once: (index: number) => Promise<unknown>) => {
  const samples: Array<number> = []
  for (let i = 0; i < times; i++) {
    const started = performance.now()
    await once(i)
    samples.push(performance.now() - started)
  }
  return samples.sort((a, b) => a - b)
}

const ms = (value: number) => `${value.toFixed(2)} ms`

const Input = Schema.Struct({ text: Schema.String })
const Output = Schema.Struct({ text: Schema.String, length: Schema.Number })

/** The skill built in: a plugin module loaded in the node's process like every built-in. */
const builtIn: PluginModule = {
  manifest: {
    apiVersion: "1.0",
    id: "@bench/echo",
    version: "1.0.0",
    namespace: "echo",
    name: "Echo",
    extensions: [{ kind: "skill", id: "say", uses: [] }]
  },
  activate: (context) => {
    context.contribute(
      "skill",
      "say",
      defineSkill({
        description: "Answers the text and its length.",
        input: Input,
        output: Output,
        run: async ({ text }) => ({ text, length: text.length })
      })
    )
  }
}

/** The same skill as a third-party plugin's main. */
const pluginMain = `import * as Schema from "effect/Schema"
export const activate = (context) => context.contribute("skill", "say", {
  description: "Answers the text and its length.",
  input: Schema.Struct({ text: Schema.String }),
  output: Schema.Struct({ text: Schema.String, length: Schema.Number }),
  run: async ({ text }) => ({ text, length: text.length })
})
`

const writeEchoPlugin = (pluginDir: string, dir: string, namespace: string) =>
  writePluginFolder(
    pluginDir,
    dir,
    { id: `@bench/${dir}`, namespace, extensions: [{ kind: "skill", id: "say", uses: [] }] },
    pluginMain
  )

/** The extension host with only the built-in above, and the skill runtime over it: no adapter, no approval asked. */
const startRuntime = (dataDir: string, pluginDir: string) =>
  ManagedRuntime.make(
    Skills.layer.pipe(
      Layer.provide(Layer.succeed(SkillApprovals, { ask: () => Effect.succeed({ signalId: null, delivered: false }) })),
      Layer.provideMerge(
        ExtensionHost.layer({ hostVersion: "0.1.0", builtins: [builtIn], adapters: {}, reservedNamespaces })
      ),
      Layer.provideMerge(contributionsLayer),
      Layer.provideMerge(databaseLayer(pluginMigrations, { filename: ":memory:" })),
      Layer.provideMerge(Settings.layerWith({ dataDir, pluginDir }))
    )
  )

export const benchPlugins = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bench-plugins-"))
  const pluginDir = join(dataDir, "plugins")
  mkdirSync(pluginDir)
  const runtime = startRuntime(dataDir, pluginDir)
  const skills = {
    pluginDir,
    install: (dir: string) =>
      runtime.runPromise(Effect.flatMap(ExtensionHost, (host) => host.install({ dir, granted: [] }))),
    invoke: (name: string, input: unknown) =>
      runtime.runPromise(
        Effect.flatMap(Skills, (runner) => runner.invoke({ name, input, beingId: "bench", approved: true }))
      )
  }
  try {
    writeEchoPlugin(skills.pluginDir, "isolated-echo", "isoecho")
    await skills.install("isolated-echo")
    const call = (name: string) => async () => {
      const outcome = await skills.invoke(name, { text: "hello" })
      if (!outcome.ok) throw new Error(`${name} failed: ${outcome.error}`)
    }
    await timed(warmUp, call("echo.say"))
    await timed(warmUp, call("isoecho.say"))
    const inProcess = await timed(rounds, call("echo.say"))
    const isolated = await timed(rounds, call("isoecho.say"))
    const added = percentile(isolated, 50) - percentile(inProcess, 50)

    const bundling = await timed(installs, async (index) => {
      const dir = writeEchoPlugin(skills.pluginDir, `bundle-${index}`, `bundle${index}`)
      await bundlePlugin(resolve(skills.pluginDir, dir), "index.js")
    })
    const cold = await timed(installs, async (index) => {
      await skills.install(writeEchoPlugin(skills.pluginDir, `cold-${index}`, `cold${index}`))
    })
    // What a boot does for each installed plugin: its bundle from the cache, a fresh isolate, activate.
    const boot = await timed(installs, async (index) => {
      const dir = resolve(skills.pluginDir, `cold-${index}`)
      const cache = pluginBundleCache(dataDir, `cold${index}`)
      await Effect.runPromise(
        Effect.gen(function* () {
          const manifest = yield* readManifest(dir)
          const isolate = yield* loadIsolated(manifest, dir, cache, () => undefined)
          yield* activatePlugin({ manifest, activate: isolate.activate, granted: [], adapters: {} })
          isolate.dispose()
        })
      )
    })
    await runtime.runPromise(
      Effect.flatMap(ExtensionHost, (host) =>
        Effect.forEach([...Array(installs).keys()], (index) => host.uninstall(`@bench/cold-${index}`), {
          discard: true
        })
      )
    )

    const rows = [
      ["figure", "p50", "p90", "against"],
      ["skill call, built in (Skills.invoke)", ms(percentile(inProcess, 50)), ms(percentile(inProcess, 90)), ""],
      [
        "the same skill through its plugin's isolate",
        ms(percentile(isolated, 50)),
        ms(percentile(isolated, 90)),
        `${ms(added)} added: ${added < 1 ? "< 1 ms: met" : "< 1 ms: missed"}`
      ],
      ["isolate cold start: install → active", ms(percentile(cold, 50)), ms(percentile(cold, 90)), ""],
      [
        "isolate cold start at boot: cached bundle → active",
        ms(percentile(boot, 50)),
        ms(percentile(boot, 90)),
        `${(percentile(cold, 50) / percentile(boot, 50)).toFixed(1)}× faster than an install`
      ],
      [
        "  of which bundling main with effect (esbuild)",
        ms(percentile(bundling, 50)),
        ms(percentile(bundling, 90)),
        `${((percentile(bundling, 50) / percentile(cold, 50)) * 100).toFixed(0)} % of the cold start`
      ]
    ]
    for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 54 : 14)).join(""))
  } finally {
    await runtime.dispose()
    rmSync(dataDir, { recursive: true, force: true })
  }
}
