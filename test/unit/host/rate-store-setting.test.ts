/** RATE_LIMIT_STORE: memory for one process; the database by default once the process is one runner of a cluster. */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { settingsConfig } from "../../../kernel/settings.ts"

const storeWith = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.withConfigProvider(
      Effect.map(settingsConfig, (settings) => settings.rateLimitStore),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    )
  )

/** A runner of a cluster needs the shared database (test/unit/kernel/runner-address-setting.test.ts). */
const onPostgres = { DATABASE_URL: "postgres://node@10.0.0.1/node" }

describe("the rate-limit store setting", () => {
  it("is memory by default, the database in a cluster, and what RATE_LIMIT_STORE says when set", async () => {
    expect(await storeWith({})).toBe("memory")
    expect(await storeWith({ CLUSTER_RUNNER_ADDRESS: "10.0.0.2:34431", ...onPostgres })).toBe("database")
    expect(await storeWith({ RATE_LIMIT_STORE: "database" })).toBe("database")
    expect(
      await storeWith({ RATE_LIMIT_STORE: "memory", CLUSTER_RUNNER_ADDRESS: "10.0.0.2:34431", ...onPostgres })
    ).toBe("memory")
  })

  it("stops the node on any other value", async () => {
    await expect(storeWith({ RATE_LIMIT_STORE: "redis" })).rejects.toThrow(/RATE_LIMIT_STORE/)
  })
})
