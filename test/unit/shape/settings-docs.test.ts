/**
 * docs/operations.md's settings table lists exactly the settings the features read: a setting
 * added to a feature's Config without a row (or a row left behind by a removed one) fails here.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { featureSettingConfigs } from "../../../host/settings.ts"
import { settingNames } from "../../../kernel/settings.ts"

const documented = (() => {
  const text = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8")
  const table = text.slice(text.indexOf("| Setting |"))
  const rows = table
    .slice(0, table.search(/\n\s*\n/))
    .split("\n")
    .slice(2)
  // A row names one or more settings in backticks in its first cell; `<TIER>` stands for any tier.
  return rows.flatMap((row) => [...(row.split("|")[1] ?? "").matchAll(/`([A-Z0-9_<>]+)`/g)].map((match) => match[1]!))
})()

const pattern = (name: string) => new RegExp(`^${name.replace(/<[A-Z]+>/g, "[A-Z0-9]+")}$`)

describe("the settings table of docs/operations.md", () => {
  it.effect("lists every setting a feature reads, and nothing else", () =>
    Effect.gen(function* () {
      const read = (yield* Effect.forEach(Object.values(featureSettingConfigs), settingNames)).flat()
      expect(read.length).toBeGreaterThan(20)
      expect(read.filter((name) => !documented.some((row) => pattern(row).test(name)))).toEqual([])
      expect(documented.filter((row) => !read.some((name) => pattern(row).test(name)))).toEqual([])
    })
  )
})
