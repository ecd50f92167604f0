import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { ExtensionContext } from "../../../kernel/extensions/context.ts"
import { contributionName, makeRegistries, type AnyContribution } from "../../../kernel/extensions/registry.ts"
import { defineSkill } from "../../../kernel/extensions/skill.ts"

const echo = defineSkill({
  description: "Echoes.",
  input: Schema.String,
  output: Schema.String,
  run: async (text) => text
})

const skill = (pluginId: string, namespace: string, id: string): AnyContribution => {
  const name = contributionName(namespace, id)
  const context: ExtensionContext = {
    plugin: { id: pluginId, namespace, version: "1.0.0" },
    extension: { kind: "skill", id, name },
    adapters: {},
    adaptersFor: () => ({})
  }
  return { kind: "skill", name, pluginId, declaration: { kind: "skill", id, uses: [] }, value: echo, context }
}

describe("contribution registries", () => {
  it.effect("keys each contribution by its full name <namespace>.<extensionId>, per kind", () =>
    Effect.gen(function* () {
      const { registries, add } = makeRegistries()
      yield* add([skill("@ada/web", "weather", "forecast")])
      expect(registries.skill.get("weather.forecast")?.pluginId).toBe("@ada/web")
      expect(registries.skill.list().map((entry) => entry.name)).toEqual(["weather.forecast"])
      expect(registries.theme.list()).toEqual([])
    })
  )

  it.effect("refuses a duplicate full name and registers nothing of that batch", () =>
    Effect.gen(function* () {
      const { registries, add } = makeRegistries()
      yield* add([skill("@ada/web", "weather", "forecast")])
      const refused = yield* Effect.either(
        add([skill("@bob/web", "weather", "radar"), skill("@bob/web", "weather", "forecast")])
      )
      expect(Either.isLeft(refused) && refused.left).toMatchObject({
        _tag: "ContributionTaken",
        error: "contribution_taken"
      })
      expect(registries.skill.get("weather.radar")).toBeUndefined()
      expect(registries.skill.get("weather.forecast")?.pluginId).toBe("@ada/web")
      const twice = yield* Effect.either(add([skill("@c/x", "x", "a"), skill("@c/x", "x", "a")]))
      expect(Either.isLeft(twice)).toBe(true)
      expect(registries.skill.get("x.a")).toBeUndefined()
    })
  )

  it.effect("removes every contribution of one plugin and nothing else", () =>
    Effect.gen(function* () {
      const { registries, add, removePlugin } = makeRegistries()
      yield* add([skill("@ada/web", "weather", "forecast"), skill("@ada/web", "weather", "radar")])
      yield* add([skill("@bob/mail", "mail", "send")])
      removePlugin("@ada/web")
      expect(registries.skill.list().map((entry) => entry.name)).toEqual(["mail.send"])
    })
  )
})
