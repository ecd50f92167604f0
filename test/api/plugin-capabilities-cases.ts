/**
 * A plugin's `credits` and `storage` under load and on either database: spends racing at once stay
 * within the grant's limit with the ledger whole, and a being's keys stay within their bytes. Run
 * on SQLite (plugin-capabilities.test.ts) and on PostgreSQL (postgres-plugin-capabilities.test.ts).
 */
import { beforeAll, describe, expect, it } from "vitest"
import { maxStorageBytes, maxStorageValueBytes } from "../../kernel/contract/storage.ts"
import { registerMember, run, type Registered, type TestNode } from "../support/node.ts"
import { adapterStepsPlugin, runSteps } from "../support/adapter-steps.ts"
import { ledgerState } from "./market-support.ts"

export const pluginCapabilityCases = (
  title: string,
  context: { readonly node: TestNode; readonly owner: Registered },
  pluginDir: () => string,
  figures: { readonly start: number; readonly limit: number }
) =>
  describe(title, () => {
    beforeAll(async () => {
      adapterStepsPlugin(pluginDir(), "tipjar", "credits")
      adapterStepsPlugin(pluginDir(), "keeper", "storage")
      for (const [dir, kind] of [
        ["tipjar", "credits"],
        ["keeper", "storage"]
      ] as const) {
        await run(context.owner.client.api.plugins.installPlugin({ payload: { dir, granted: [kind] } }))
      }
    })

    it("lets spends racing at once take no more than the grant's limit, every movement in the ledger", async () => {
      const being = await registerMember(context.node, context.owner.client)
      const racing = await Promise.all(Array.from({ length: 6 }, () => runSteps(being, "tipjar.use", [["spend", 10]])))
      const outcomes = racing.map(([result]) => (result?.error === undefined ? "spent" : result.error))
      expect(outcomes.filter((outcome) => outcome === "spent")).toHaveLength(figures.limit / 10)
      for (const refused of outcomes.filter((outcome) => outcome !== "spent"))
        expect(refused).toContain(`may spend at most ${figures.limit} credits`)
      expect(await run(being.client.api.market.wallet())).toMatchObject({
        balance: figures.start - figures.limit,
        spent: figures.limit
      })
      expect(await ledgerState(context.node)).toMatchObject({ total: 0, drifted: [] })
    })

    it("keeps one being's keys apart and within their bytes", async () => {
      const being = await registerMember(context.node, context.owner.client)
      expect(await runSteps(being, "keeper.use", [["set", "a", { n: 1 }], ["get", "a"], ["list"]])).toEqual([
        { value: { key: "a" } },
        { value: { n: 1 } },
        { value: ["a"] }
      ])
      expect(await runSteps(context.owner, "keeper.use", [["get", "a"]])).toEqual([{ value: null }])
      const length = maxStorageValueBytes - 100
      const fill = Array.from({ length: Math.ceil(maxStorageBytes / length) + 1 }, (_, index) => [
        "set",
        `big/${index}`,
        { $repeat: ["z", length] }
      ])
      const filled = await runSteps(being, "keeper.use", fill)
      const refused = filled.filter((result) => result.error !== undefined)
      expect(refused.length).toBeGreaterThan(0)
      expect(refused[0]?.error).toContain(`may hold ${maxStorageBytes / 1024} KB`)
    })
  })
