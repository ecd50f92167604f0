/**
 * The `storage` capability in a third-party plugin's isolate: its own keys for the being of the
 * call, bounded (a value's size, the keys, the bytes), never another plugin's or another being's.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { maxStorageBytes, maxStorageKeys, maxStorageValueBytes } from "../../kernel/contract/storage.ts"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { adapterStepsPlugin, runSteps, ungrantedStepsPlugin } from "../support/adapter-steps.ts"

let node: TestNode
let owner: Registered
let member: Registered
let pluginDir: string

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  pluginDir = join(node.dataDir, "plugins")
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  for (const dir of ["keeper", "other"]) {
    adapterStepsPlugin(pluginDir, dir, "storage")
    await run(owner.client.api.plugins.installPlugin({ payload: { dir, granted: ["storage"] } }))
  }
})
afterAll(() => node.close())

const call = runSteps

describe("a plugin granted storage", () => {
  it("sets, gets, lists and deletes its own keys", async () => {
    const results = await call(owner, "keeper.use", [
      ["set", "notes/one", { text: "tea", n: 1 }],
      ["set", "notes/two", [1, 2, 3]],
      ["set", "other", "x"],
      ["get", "notes/one"],
      ["list", "notes/"],
      ["list"],
      ["delete", "notes/two"],
      ["delete", "notes/two"],
      ["get", "notes/two"],
      ["set", "notes/one", "again"],
      ["get", "notes/one"]
    ])
    expect(results.map((result) => result.value)).toEqual([
      { key: "notes/one" },
      { key: "notes/two" },
      { key: "other" },
      { text: "tea", n: 1 },
      ["notes/one", "notes/two"],
      ["notes/one", "notes/two", "other"],
      true,
      false,
      null,
      { key: "notes/one" },
      "again"
    ])
  })

  it("keeps one being's keys from another, and one plugin's from another", async () => {
    await call(owner, "keeper.use", [["set", "secret", "the owner's"]])
    expect(await call(member, "keeper.use", [["get", "secret"], ["list"]])).toEqual([{ value: null }, { value: [] }])
    expect(await call(owner, "other.use", [["get", "secret"], ["list"]])).toEqual([{ value: null }, { value: [] }])
    await call(member, "keeper.use", [["set", "secret", "the member's"]])
    expect(await call(owner, "keeper.use", [["get", "secret"]])).toEqual([{ value: "the owner's" }])
    expect(await call(member, "keeper.use", [["get", "secret"]])).toEqual([{ value: "the member's" }])
  })

  it("refuses a value over its size, a bad key and a value that is not JSON, writing nothing", async () => {
    const results = await call(owner, "keeper.use", [
      ["set", "big", { $repeat: ["x", maxStorageValueBytes] }],
      ["set", "", 1],
      ["set", "k".repeat(201), 1],
      ["get", 42],
      ["get", "big"]
    ])
    expect(results[0]?.error).toContain(`at most ${maxStorageValueBytes / 1024} KB`)
    expect(results[1]?.error).toContain("A storage key is a string of 1 to 200 characters")
    expect(results[2]?.error).toContain("A storage key")
    expect(results[3]?.error).toContain("A storage key")
    expect(results[4]).toEqual({ value: null })
  })

  it("holds a plugin to its keys and bytes for each being", async () => {
    const fresh = await registerMember(node, owner.client)
    const length = maxStorageValueBytes - 100
    const value = { $repeat: ["y", length] }
    const fill = Array.from({ length: Math.ceil(maxStorageBytes / length) + 1 }, (_, index) => [
      "set",
      `big/${index}`,
      value
    ])
    const filled = await call(fresh, "keeper.use", fill)
    const firstRefused = filled.findIndex((result) => result.error !== undefined)
    // Each entry is its key and its value as JSON: the refused one would have taken the store past its bytes.
    const entry = length + 2
    expect(firstRefused * entry).toBeLessThanOrEqual(maxStorageBytes)
    expect((firstRefused + 1) * (entry + 8)).toBeGreaterThan(maxStorageBytes)
    expect(filled[firstRefused]?.error).toContain(`may hold ${maxStorageBytes / 1024} KB`)
    // Replacing a value with a smaller one frees room; deleting does too.
    expect(
      await call(fresh, "keeper.use", [
        ["set", "big/0", "small"],
        ["set", "more", "fits now"]
      ])
    ).toEqual([{ value: { key: "big/0" } }, { value: { key: "more" } }])

    const counted = await registerMember(node, owner.client)
    const keys = Array.from({ length: maxStorageKeys + 1 }, (_, index) => ["set", `k${index}`, index])
    const results = await call(counted, "keeper.use", keys)
    expect(results.slice(0, maxStorageKeys).every((result) => result.error === undefined)).toBe(true)
    expect(results[maxStorageKeys]?.error).toContain(`holds ${maxStorageKeys} keys already`)
    // Another plugin's storage for the same being is its own.
    expect(await call(counted, "other.use", [["set", "k", 1]])).toEqual([{ value: { key: "k" } }])
  })
})

describe("a plugin without the storage capability", () => {
  it("finds no storage adapter in a skill that does not use it", async () => {
    expect(await call(owner, "keeper.bare", [])).toEqual({ absent: true })
  })

  it("finds none when it was never granted", async () => {
    ungrantedStepsPlugin(pluginDir, "nokeys", "storage")
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "nokeys", granted: [] } }))
    expect(await call(owner, "nokeys.use", [])).toEqual({ absent: true })
  })

  it("refuses the install of a plugin that declares storage without the grant", async () => {
    adapterStepsPlugin(pluginDir, "ungranted", "storage")
    const answer = await refused(owner.client.api.plugins.installPlugin({ payload: { dir: "ungranted", granted: [] } }))
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ details: { missing: ["storage"] } })
  })

  it("drops its keys when it is uninstalled", async () => {
    await call(owner, "other.use", [["set", "kept", 1]])
    await run(owner.client.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent("@test/other") } }))
    adapterStepsPlugin(pluginDir, "other", "storage")
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "other", granted: ["storage"] } }))
    expect(await call(owner, "other.use", [["get", "kept"]])).toEqual([{ value: null }])
  })
})
