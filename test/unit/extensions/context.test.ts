import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { activatePlugin } from "../../../kernel/extensions/activation.ts"
import type { AuthoringAdapter } from "../../../extensions/studio/authoring-capability.ts"
import type { CreditsAdapter, ScheduleAdapter } from "../../../kernel/extensions/adapters.ts"
import type { CapabilityAdapterFactories, PluginContext } from "../../../kernel/extensions/context.ts"
import { decodeManifest } from "../../../kernel/extensions/read-manifest.ts"
import { defineSkill } from "../../../kernel/extensions/skill.ts"

const manifest = Effect.runSync(
  decodeManifest({
    apiVersion: "1.0",
    id: "@ada/notes",
    version: "1.0.0",
    namespace: "notes",
    name: "Notes",
    capabilities: [{ kind: "storage" }, { kind: "schedule" }],
    extensions: [
      { kind: "skill", id: "save", uses: ["storage"] },
      { kind: "integration", id: "board", uses: [] }
    ]
  })
)

/** One adapter per capability, each naming the plugin it was made for. */
const adapters: CapabilityAdapterFactories = {
  storage: (plugin) => ({ kind: "storage", for: plugin.id }) as unknown as AuthoringAdapter,
  schedule: (plugin) => ({ kind: "schedule", for: plugin.id }) as unknown as ScheduleAdapter,
  credits: (plugin) => ({ kind: "credits", for: plugin.id }) as unknown as CreditsAdapter
}

const save = defineSkill({
  description: "Saves a note.",
  input: Schema.Struct({ text: Schema.String }),
  output: Schema.Struct({ saved: Schema.Boolean }),
  run: async () => ({ saved: true })
})

const contributeAll = (context: PluginContext) => {
  context.contribute("skill", "save", save)
  context.contribute("integration", "board", {})
}

describe("capability context", () => {
  it.effect("holds only the granted adapters; every other capability is undefined", () =>
    Effect.gen(function* () {
      let seen: PluginContext | undefined
      const contributions = yield* activatePlugin({
        manifest,
        granted: ["storage", "schedule"],
        adapters,
        activate: (context) => {
          seen = context
          contributeAll(context)
        }
      })
      expect(seen?.adapters.storage).toEqual({ kind: "storage", for: "@ada/notes" })
      expect(seen?.adapters.schedule).toEqual({ kind: "schedule", for: "@ada/notes" })
      expect(seen?.adapters.llm).toBeUndefined()
      expect(seen?.adapters.memory).toBeUndefined()
      expect(Object.keys(seen?.adapters ?? {}).sort()).toEqual(["schedule", "storage"])

      const saved = contributions.find((contribution) => contribution.name === "notes.save")
      expect(saved?.context.adapters.storage).toEqual({ kind: "storage", for: "@ada/notes" })
      expect(saved?.context.adapters.schedule).toBeUndefined()
      expect(saved?.context.extension).toEqual({ kind: "skill", id: "save", name: "notes.save" })
      const board = contributions.find((contribution) => contribution.name === "notes.board")
      expect(board?.context.adapters).toEqual({})
    })
  )

  it.effect(
    "builds a contribution's adapters afresh for each call, with that call's scope, still only uses ∩ grants",
    () =>
      Effect.gen(function* () {
        const scoped: CapabilityAdapterFactories = {
          storage: (plugin, scope) => ({ for: plugin.id, ...scope }) as unknown as AuthoringAdapter,
          schedule: (plugin, scope) => ({ for: plugin.id, ...scope }) as unknown as ScheduleAdapter
        }
        let seen: PluginContext | undefined
        const contributions = yield* activatePlugin({
          manifest,
          granted: ["storage", "schedule"],
          adapters: scoped,
          activate: (context) => {
            seen = context
            contributeAll(context)
          }
        })
        const outsideCall = { beingId: null, projectId: null, contribution: null }
        expect(seen?.adapters.storage).toEqual({ for: "@ada/notes", ...outsideCall })
        const saved = contributions.find((contribution) => contribution.name === "notes.save")
        expect(saved?.context.adapters).toEqual({ storage: { for: "@ada/notes", ...outsideCall } })
        const call = { beingId: "ada", projectId: "p-1", contribution: "notes.save" }
        expect(saved?.context.adaptersFor(call)).toEqual({ storage: { for: "@ada/notes", ...call } })
        expect(
          contributions.find((contribution) => contribution.name === "notes.board")?.context.adaptersFor(call)
        ).toEqual({})
      })
  )

  it.effect("leaves a granted capability undefined while the host has no adapter for it", () =>
    Effect.gen(function* () {
      const contributions = yield* activatePlugin({
        manifest,
        granted: ["schedule", "storage"],
        adapters: { schedule: adapters.schedule! },
        activate: contributeAll
      })
      const saved = contributions.find((contribution) => contribution.name === "notes.save")
      expect(saved?.context.adapters.storage).toBeUndefined()
    })
  )

  it.effect(
    "leaves a capability absent, not undefined-valued, for a plugin or call its factory serves nothing to",
    () =>
      Effect.gen(function* () {
        const forCallsOnly: CapabilityAdapterFactories = {
          storage: (plugin, scope) =>
            scope.beingId === null ? undefined : ({ for: plugin.id } as unknown as AuthoringAdapter)
        }
        let seen: PluginContext | undefined
        const contributions = yield* activatePlugin({
          manifest,
          granted: ["storage"],
          adapters: forCallsOnly,
          activate: (context) => {
            seen = context
            contributeAll(context)
          }
        })
        expect(Object.keys(seen?.adapters ?? { missing: true })).toEqual([])
        const saved = contributions.find((contribution) => contribution.name === "notes.save")
        expect(saved?.context.adaptersFor({ beingId: "ada", projectId: null, contribution: "notes.save" })).toEqual({
          storage: { for: "@ada/notes" }
        })
      })
  )

  it.effect("refuses undeclared, mis-kinded, repeated, missing and late contributions", () =>
    Effect.gen(function* () {
      const attempt = (activate: (context: PluginContext) => void | Promise<void>) =>
        activatePlugin({ manifest, granted: ["storage", "schedule"], adapters, activate }).pipe(
          Effect.flip,
          Effect.map((error) => ({ error: error.error, message: error.message }))
        )
      expect(yield* attempt((context) => context.contribute("skill", "delete", save))).toEqual({
        error: "activation_failed",
        message: `@ada/notes failed to activate: "delete" is not among the extensions its manifest declares`
      })
      expect(
        (yield* attempt((context) =>
          context.contribute("theme", "save", { colorScheme: "light", tokens: {} as never })
        )).message
      ).toContain(`"save" is declared as a skill, not a theme`)
      expect(
        (yield* attempt((context) => {
          contributeAll(context)
          context.contribute("skill", "save", save)
        })).message
      ).toContain(`"save" was contributed twice`)
      expect((yield* attempt((context) => context.contribute("skill", "save", save))).message).toContain(
        "declared but never contributed: board"
      )
      expect(
        (yield* attempt(async () => {
          throw new Error("boom")
        })).message
      ).toBe("@ada/notes failed to activate: boom")

      let late: PluginContext | undefined
      yield* activatePlugin({
        manifest,
        granted: ["storage", "schedule"],
        adapters,
        activate: (context) => {
          late = context
          contributeAll(context)
        }
      })
      expect(() => late?.contribute("integration", "board", {})).toThrow("after activate finished")
    })
  )

  it.effect("validates a contribution's shape for kinds the kernel types (themes)", () =>
    Effect.gen(function* () {
      const themed = Effect.runSync(
        decodeManifest({
          apiVersion: "1.0",
          id: "@ada/t",
          version: "1.0.0",
          namespace: "t",
          name: "T",
          extensions: [{ kind: "theme", id: "sneaky", uses: [] }]
        })
      )
      const tokens = {
        background: "#fff",
        surface: "#fff",
        text: "#000",
        muted: "#555",
        accent: "blue",
        danger: "red",
        border: "#ddd",
        focusRing: "red; } body { display: none"
      }
      const result = yield* Effect.either(
        activatePlugin({
          manifest: themed,
          granted: [],
          adapters,
          activate: (context) => context.contribute("theme", "sneaky", { colorScheme: "dark", tokens })
        })
      )
      expect(Either.isLeft(result) && result.left.message).toContain(`the theme "sneaky" has the wrong shape`)
    })
  )
})

describe("skill contributions", () => {
  const skilled = Effect.runSync(
    decodeManifest({
      apiVersion: "1.0",
      id: "@ada/s",
      version: "1.0.0",
      namespace: "s",
      name: "S",
      extensions: [{ kind: "skill", id: "odd", uses: [] }]
    })
  )
  const refusal = (value: unknown) =>
    activatePlugin({
      manifest: skilled,
      granted: [],
      adapters,
      activate: (context) => context.contribute("skill", "odd", value as never)
    }).pipe(
      Effect.flip,
      Effect.map((error) => error.message)
    )

  it.effect(
    "refuses a skill without schemas, without a run function, or with a schema JSON Schema cannot describe",
    () =>
      Effect.gen(function* () {
        expect(
          yield* refusal({ description: "x", input: { type: "object" }, output: Schema.String, run: () => 1 })
        ).toContain(`the skill "odd" has the wrong shape`)
        expect(yield* refusal({ description: "x", input: Schema.String, output: Schema.String, run: "go" })).toContain(
          "run"
        )
        expect(
          yield* refusal({ description: "", input: Schema.String, output: Schema.String, run: () => 1 })
        ).toContain("description")
        const opaque = Schema.declare((value: unknown): value is Date => value instanceof Date)
        expect(
          yield* refusal({
            description: "x",
            input: Schema.Struct({ when: opaque }),
            output: Schema.String,
            run: () => 1
          })
        ).toContain("cannot be published as JSON Schema")
      })
  )
})
