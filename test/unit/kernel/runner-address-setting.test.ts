/**
 * CLUSTER_RUNNER_ADDRESS: unset, the one-process runner; a host:port, this process's address as
 * one socket runner of a cluster, which the node accepts only on PostgreSQL (the shared database).
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { settingsConfig } from "../../../kernel/settings.ts"

const addressWith = (env: Record<string, string>) =>
  Effect.runPromise(
    Effect.withConfigProvider(
      Effect.map(settingsConfig, (settings) => settings.clusterRunnerAddress),
      ConfigProvider.fromMap(new Map(Object.entries(env)))
    )
  )

const onPostgres = { DATABASE_URL: "postgres://node@10.0.0.1/node" }

describe("the cluster runner address setting", () => {
  it("is none by default and the host and port it names on PostgreSQL", async () => {
    expect(await addressWith({})).toEqual(Option.none())
    expect(await addressWith({ CLUSTER_RUNNER_ADDRESS: " 10.0.0.2:34431 ", ...onPostgres })).toEqual(
      Option.some({ host: "10.0.0.2", port: 34431 })
    )
    expect(await addressWith({ CLUSTER_RUNNER_ADDRESS: "runner-b.internal:4000", ...onPostgres })).toEqual(
      Option.some({ host: "runner-b.internal", port: 4000 })
    )
    expect(await addressWith({ CLUSTER_RUNNER_ADDRESS: "[fd00::2]:34431", ...onPostgres })).toEqual(
      Option.some({ host: "fd00::2", port: 34431 })
    )
  })

  it("stops the node without PostgreSQL, saying the runners need the shared database", async () => {
    await expect(addressWith({ CLUSTER_RUNNER_ADDRESS: "10.0.0.2:34431" })).rejects.toThrow(
      /CLUSTER_RUNNER_ADDRESS needs DATABASE_URL/
    )
  })

  it("stops the node on an address that is not host:port", async () => {
    for (const text of ["10.0.0.2", "10.0.0.2:", ":34431", "10.0.0.2:0", "10.0.0.2:70000", "a b:1"]) {
      await expect(addressWith({ CLUSTER_RUNNER_ADDRESS: text, ...onPostgres }), text).rejects.toThrow(/host:port/)
    }
  })
})
