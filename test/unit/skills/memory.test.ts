/**
 * memory.store and memory.recall through the skill runtime: a plain note where the host gives no
 * memory adapter, and, over a recording stand-in for the twin's store, the call's being and
 * project reaching the adapter and rule 3's source rewrite inside a project. (The node's real
 * adapter over the twin: test/api/skill-families.test.ts.)
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { CallScope } from "../../../kernel/extensions/context.ts"
import type { MemoryQuery, MemoryRecord, NewMemory } from "../../../kernel/extensions/memory.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

const stored: Array<{ readonly memory: NewMemory; readonly scope: CallScope }> = []
const recalled: Array<{ readonly query: Omit<MemoryQuery, "signal">; readonly scope: CallScope }> = []

const recordOf = (memory: NewMemory, n: number): MemoryRecord => ({
  id: `m-${n}`,
  ...memory,
  createdAt: "2030-01-01T00:00:00.000Z"
})

let unwired: SkillHarness
let twin: SkillHarness

beforeAll(async () => {
  unwired = await startSkills()
  twin = await startSkills({
    adapters: {
      memory: (_plugin, scope) => ({
        store: (memory) =>
          Effect.sync(() => {
            stored.push({ memory, scope })
            return { memory: recordOf(memory, stored.length), stored: true }
          }),
        recall: (query) =>
          Effect.sync(() => {
            recalled.push({ query, scope })
            return stored.map((entry, n) => recordOf(entry.memory, n + 1)).slice(0, query.limit)
          })
      })
    }
  })
})
afterAll(() => Promise.all([unwired.close(), twin.close()]))
beforeEach(() => {
  stored.length = 0
  recalled.length = 0
})

describe("without a memory adapter (a host that gives none)", () => {
  it("memory.store stores nothing and says so", async () => {
    expect(await unwired.invoke("memory.store", { content: "Ada likes tea." })).toMatchObject({
      ok: true,
      output: { memory: null, stored: false, note: "memory is not wired on this node yet." }
    })
  })

  it("memory.recall answers no memories and says so", async () => {
    expect(await unwired.invoke("memory.recall", { query: "tea" })).toMatchObject({
      ok: true,
      output: { memories: [], note: "memory is not wired on this node yet." }
    })
  })
})

describe("through the memory adapter", () => {
  it("stores with the spec's defaults in the twin of the calling being", async () => {
    const outcome = await twin.invoke("memory.store", { content: "Ada likes tea." }, { beingId: "ada" })
    expect(stored).toEqual([
      {
        memory: { content: "Ada likes tea.", kind: "fact", importance: 0.5, tags: [], source: "skill" },
        scope: { beingId: "ada", projectId: null, contribution: "memory.store" }
      }
    ])
    expect(outcome.output).toEqual({
      memory: { id: "m-1", ...stored[0].memory, createdAt: "2030-01-01T00:00:00.000Z" },
      stored: true
    })
  })

  it("rewrites a source left at 'skill' to studio:<projectId> inside a project, and keeps any other", async () => {
    await twin.invoke("memory.store", { content: "The launch is in May." }, { projectId: "p-9" })
    await twin.invoke(
      "memory.store",
      { content: "Ada prefers mornings.", kind: "preference", source: "interview" },
      { projectId: "p-9" }
    )
    expect(stored.map((entry) => entry.memory.source)).toEqual(["studio:p-9", "interview"])
    expect(stored[0].scope).toMatchObject({ projectId: "p-9" })
  })

  it("refuses content past 4000 characters, an importance outside 0..1 and an unknown kind", async () => {
    for (const input of [
      { content: "x".repeat(4001) },
      { content: "x", importance: 1.5 },
      { content: "x", kind: "rumour" },
      { content: "  " }
    ]) {
      expect(await twin.invoke("memory.store", input)).toMatchObject({
        ok: false,
        error: expect.stringContaining("The input does not fit memory.store")
      })
    }
    expect(
      await twin.invoke("memory.store", { content: "x".repeat(4000), importance: 1, tags: ["launch"] })
    ).toMatchObject({ ok: true })
    expect(stored).toHaveLength(1)
  })

  it("recalls through the adapter for the calling being", async () => {
    await twin.invoke("memory.store", { content: "Ada likes tea." })
    const outcome = await twin.invoke("memory.recall", { query: "tea", kind: "fact", limit: 3 }, { beingId: "ada" })
    expect(recalled).toEqual([
      {
        query: { query: "tea", kind: "fact", limit: 3 },
        scope: { beingId: "ada", projectId: null, contribution: "memory.recall" }
      }
    ])
    expect(outcome.output).toEqual({ memories: [expect.objectContaining({ id: "m-1", content: "Ada likes tea." })] })
  })
})
