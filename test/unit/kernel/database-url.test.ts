/**
 * DATABASE_URL: a PostgreSQL URL is taken and held redacted; anything else stops the node at
 * start with a message that names the setting and not the value.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { settingsConfig } from "../../../kernel/settings.ts"

const read = (env: Record<string, string>) =>
  Effect.withConfigProvider(settingsConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("DATABASE_URL", () => {
  it.effect("is unset by default: SQLite", () =>
    Effect.gen(function* () {
      expect((yield* read({})).databaseUrl).toEqual(Option.none())
    })
  )

  it.effect("takes a postgres:// or postgresql:// URL, held redacted", () =>
    Effect.gen(function* () {
      for (const url of [
        "postgres://node:s3cret@db.example.org:5432/node",
        "postgresql://localhost/node?sslmode=require"
      ]) {
        const settings = yield* read({ DATABASE_URL: url })
        expect(Option.map(settings.databaseUrl, Redacted.value)).toEqual(Option.some(url))
        expect(String(settings.databaseUrl)).not.toContain("s3cret")
      }
    })
  )

  it.effect("refuses any other URL, naming the setting but not its value", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(read({ DATABASE_URL: "mysql://node:s3cret@db.example.org/node" }))
      expect(String(error)).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL")
      expect(String(error)).not.toContain("s3cret")
    })
  )
})
