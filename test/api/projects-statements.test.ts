/**
 * What a studio task costs the database, counted on a real node's own spans (every trace sampled,
 * exported to a test OTLP receiver) for a run of a six-task plan against the scripted model server:
 * the SQL statements each task's span holds stay within a bound (docs/benchmarks.md, "Orchestration
 * per studio task": 24 a task before session 21, 12 after it, 11 after session 22), no transaction
 * is opened inside it (the task's cost is one statement on its run's row), the task's row is never
 * read back by id inside it, and the plan is read once per run and again only when something wakes
 * the run, not once a task.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { remoteDefault } from "../support/models.ts"
import { registerOwner, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts"
import { scriptStudio } from "./projects-scripted.ts"
import { startBrief, untilSettled } from "./projects-support.ts"

/**
 * Statements inside one task's span: its claim, its final row, its cost (one), two model calls' ceilings and records,
 * its trace (three), its note.
 */
const maxStatementsPerTask = 11
const taskCount = 6

/** The nearest ancestor of the span (itself included) with the name, if any. */
const ancestorNamed = (byId: Map<string, ReceivedSpan>, span: ReceivedSpan, name: string) => {
  let current: ReceivedSpan | undefined = span
  while (current !== undefined && current.name !== name) current = byId.get(current.parentSpanId ?? "")
  return current
}

describe("a studio run's statements", () => {
  let collector: OtlpReceiver
  let models: OpenAiServer
  let node: TestNode
  beforeAll(async () => {
    ;[collector, models] = await Promise.all([startOtlpReceiver(), startOpenAiServer()])
    node = await startNode({
      ...remoteDefault(models.baseUrl),
      otlpEndpoint: Option.some(collector.endpoint),
      tracesSampleRatio: 1
    })
  })
  afterAll(() => Promise.all([node.close(), models.close(), collector.close()]))

  it("stay within a bound a task, in no transaction, reading neither the task's row nor the plan once a task", async () => {
    const owner = await registerOwner(node)
    scriptStudio(models, {
      plan: {
        tasks: Array.from({ length: taskCount }, (_, i) => ({
          id: `part${i}`,
          title: `Write part ${i}`,
          role: "writer",
          dependsOn: i === 0 ? [] : [`part${i - 1}`]
        }))
      }
    })
    const started = await startBrief(owner.client, "Six short parts on green tea.")
    const detail = await untilSettled(owner.client, started.id, undefined, 60_000)
    expect(detail.project.status).toBe("done")
    expect(detail.tasks.length).toBeGreaterThanOrEqual(taskCount)
    expect(detail.tasks.every((task) => task.status === "done")).toBe(true)

    // A span is exported once it ends, and the run's ends after every span inside it.
    await expect
      .poll(() => collector.spans.find((span) => span.name === "project.run"), { timeout: 30_000 })
      .toBeDefined()
    const run = collector.spans.find((span) => span.name === "project.run")!
    const spans = collector.spans.filter((span) => span.traceId === run.traceId)
    const byId = new Map(spans.map((span) => [span.spanId, span]))
    const inRun = spans.filter((span) => ancestorNamed(byId, span, "project.run") !== undefined)

    const tasks = inRun.filter((span) => span.name === "project.task")
    expect(tasks).toHaveLength(detail.tasks.length)
    const perTask = new Map(tasks.map((task) => [task.spanId, { statements: 0, rowReads: 0, transactions: 0 }]))
    for (const span of inRun) {
      const task = ancestorNamed(byId, span, "project.task")
      if (task === undefined) continue
      const counts = perTask.get(task.spanId)!
      if (span.name === "sql.execute") counts.statements += 1
      if (span.name === "projectTasks.findById") counts.rowReads += 1
      if (span.name === "sql.transaction") counts.transactions += 1
    }
    for (const counts of perTask.values()) {
      expect(counts.rowReads).toBe(0)
      expect(counts.transactions).toBe(0)
      expect(counts.statements).toBeGreaterThan(0)
      expect(counts.statements).toBeLessThanOrEqual(maxStatementsPerTask)
    }
    // The plan is read as the run starts the tasks step and after it, not once a task.
    const planReads = inRun.filter(
      (span) => span.name === "projectTasks.planOf" || span.name === "projectTasks.listByProject"
    )
    expect(planReads.length).toBeLessThanOrEqual(3)
  }, 90_000)
})
