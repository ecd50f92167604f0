/**
 * A test plugin's skill that runs the operations of one of its adapters as its input lists them
 * (`text`: JSON `[[operation, ...args], ...]`), answering each operation's value or error message,
 * or `{ absent: true }` when the call holds no such adapter; an arg `{ $repeat: [text, n] }` is
 * made inside the isolate, so a large value need not travel in the request.
 */
import { expect } from "vitest"
import { run, type Registered } from "./node.ts"
import { skillsMain, writePluginFolder } from "./plugin-folder.ts"

export const adapterStepsSkill = (kind: string) => `
  const adapter = context.adapters[${JSON.stringify(kind)}]
  if (adapter === undefined) return { absent: true }
  const made = (arg) => (arg !== null && typeof arg === "object" && "$repeat" in arg ? arg.$repeat[0].repeat(arg.$repeat[1]) : arg)
  const results = []
  for (const [operation, ...args] of JSON.parse(input.text)) {
    results.push(await adapter[operation](...args.map(made)).then((value) => ({ value }), (error) => ({ error: error.message })))
  }
  return results`

/** A plugin declaring `kind`, with skill `use` using it and skill `bare` using nothing, both running adapter steps. */
export const adapterStepsPlugin = (pluginDir: string, dir: string, kind: string) =>
  writePluginFolder(
    pluginDir,
    dir,
    {
      capabilities: [{ kind }],
      extensions: [
        { kind: "skill", id: "use", uses: [kind] },
        { kind: "skill", id: "bare", uses: [] }
      ]
    },
    skillsMain({ use: adapterStepsSkill(kind), bare: adapterStepsSkill(kind) }, { timeoutMs: 60_000 })
  )

/** A plugin that declares nothing, whose skill `use` runs adapter steps of `kind` all the same. */
export const ungrantedStepsPlugin = (pluginDir: string, dir: string, kind: string) =>
  writePluginFolder(
    pluginDir,
    dir,
    { extensions: [{ kind: "skill", id: "use", uses: [] }] },
    skillsMain({ use: adapterStepsSkill(kind) })
  )

export type StepResult = { readonly value?: unknown; readonly error?: string }

/** Invokes the skill `name` as `who` with `steps`; the call itself must succeed. */
export const runSteps = async (who: Registered, name: string, steps: ReadonlyArray<ReadonlyArray<unknown>>) => {
  const answer = await run(
    who.client.api.studioSkills.invokeSkill({ payload: { name, input: { text: JSON.stringify(steps) } } })
  )
  expect(answer.ok).toBe(true)
  return (answer as { readonly output: unknown }).output as ReadonlyArray<StepResult>
}
