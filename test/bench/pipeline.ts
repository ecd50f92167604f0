/**
 * The project pipeline's own cost (issue 4): a 50-task DAG run on a real node against the
 * scripted OpenAI server. (1) With an instant model and one task at a time: the orchestration
 * time per task, i.e. the run's span less the time its model calls took, over 50 (aim < 2 ms,
 * issue 27's; issue 4 aimed under 5).
 * (2) With the model answering in 200 ms and four tasks at once: the tasks' wall time against
 * idealWallTime of the same DAG (aim within 10 %). The plan is written straight to the store (a
 * generator holds at most 24 steps), so the run does team, tasks, outputs and review.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ProjectActor } from "../../actors/project/protocol.ts"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { idealWallTime } from "../../actors/project/pipeline/schedule.ts"
import { newId, ProjectStore, type NewTask } from "../../actors/project/store.ts"
import { scriptStudio } from "../api/projects-scripted.ts"
import { startOpenAiServer } from "../support/openai-server.ts"
import { person } from "../support/person.ts"
import { meets, recordVerdict } from "./verdicts.ts"

const taskCount = 50
/** Orchestration per task, instant model (issue 27), and the paced run's wall time over the ideal (issue 4). */
const aims = { perTaskMs: 2, overIdeal: 1.1 }

/** Four chains with a few cross links: parallel enough for four workers, with a real critical path. */
const dag = (): Array<NewTask> =>
  Array.from(
    { length: taskCount },
    (_, i): NewTask => ({
      key: `t${i}`,
      title: `Task ${i}`,
      description: "",
      instruction: `Write part ${i}.`,
      role: i % 2 === 0 ? "researcher" : "writer",
      skills: ["files.write"],
      tier: "cheap",
      dependsOn: [...(i >= 4 ? [`t${i - 4}`] : []), ...(i >= 8 && i % 7 === 0 ? [`t${i - 7}`] : [])],
      outputKind: "markdown",
      contract: null,
      template: null
    })
  )

const runOnce = async (concurrency: number, modelDelayMs: number) => {
  const models = await startOpenAiServer()
  scriptStudio(models, { delayMs: () => modelDelayMs })
  const dataDir = mkdtempSync(join(tmpdir(), "bench-pipeline-"))
  // The node's own store (one instance: a layer is built once per runtime), to write the plan straight in.
  const runtime = ManagedRuntime.make(
    ProjectStore.Default.pipe(
      Layer.provideMerge(bootInfoLayer),
      Layer.provideMerge(
        nodeLayer({
          settings: {
            dataDir,
            port: 0,
            host: "127.0.0.1",
            rateLimitPerMinute: 100_000_000,
            llmBaseUrl: Option.some(models.baseUrl),
            llmApiKey: Option.some(Redacted.make("sk-bench")),
            llmLocal: Option.some(false),
            spendMaxProjectUsd: 1_000,
            spendMaxDayUsd: 1_000,
            studioTaskConcurrency: concurrency
          }
        })
      )
    )
  )
  try {
    const info = await runtime.runPromise(BootInfo)
    const registered = await fetch(`${info.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(person(Option.getOrThrow(info.ownerCode)))
    })
    const ownerId = ((await registered.json()) as { being: { id: string } }).being.id
    const projectId = newId()
    const tasks = dag()
    const figures = await runtime.runPromise(
      Effect.gen(function* () {
        const store = yield* ProjectStore
        const sql = yield* SqlClient.SqlClient
        yield* store.insertProject({
          id: projectId,
          ownerId,
          generatorId: null,
          title: "Bench",
          brief: "Bench",
          inputs: {}
        })
        yield* store.savePlan(projectId, tasks)
        const actor = yield* ProjectActor.client
        yield* actor(projectId).Run({ projectId, runNumber: 1 })
        const [span] = yield* sql<{
          first: string
          last: string
          done: number
        }>`SELECT min(started_at) AS first, max(finished_at) AS last,
        sum(status = 'done') AS done FROM project_tasks WHERE project_id = ${projectId}`
        const [calls] = yield* sql<{
          ms: number
        }>`SELECT sum(duration_ms) AS ms FROM llm_calls WHERE project_id = ${projectId} AND purpose LIKE 'studio task %'`
        return { spanMs: Date.parse(span.last) - Date.parse(span.first), done: span.done, modelMs: calls.ms }
      })
    )
    if (figures.done !== taskCount) throw new Error(`only ${figures.done} of ${taskCount} tasks finished`)
    // Each task is two model calls (save, then say so).
    const ideal = idealWallTime(
      tasks.map((task) => ({ id: task.key, dependsOn: task.dependsOn })),
      () => 2 * modelDelayMs,
      concurrency
    )
    return { ...figures, ideal }
  } finally {
    await runtime.dispose()
    await models.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const benchPipeline = async () => {
  const instant = await runOnce(1, 0)
  const perTask = (instant.spanMs - instant.modelMs) / taskCount
  const paced = await runOnce(4, 200)
  const ratio = paced.spanMs / paced.ideal
  const rows = [
    ["figure", "value", "anchor", "aim"],
    [
      "orchestration per task (instant model, 1 at a time)",
      `${perTask.toFixed(2)} ms`,
      `model calls ${(instant.modelMs / taskCount).toFixed(2)} ms/task`,
      `< ${aims.perTaskMs} ms: ${perTask < aims.perTaskMs ? "met" : "missed"}`
    ],
    [
      "wall time, 50 tasks, 200 ms model, 4 at once",
      `${paced.spanMs} ms`,
      `idealWallTime ${paced.ideal} ms`,
      `${((ratio - 1) * 100).toFixed(1)} % over ideal (aim ${((aims.overIdeal - 1) * 100).toFixed(0)} %): ${ratio <= aims.overIdeal ? "met" : "missed"}`
    ]
  ]
  for (const row of rows) console.log(row.map((cell, index) => cell.padEnd(index === 0 ? 54 : 30)).join(""))
  recordVerdict({
    figure: "orchestration per studio task (instant model)",
    measured: `${perTask.toFixed(2)} ms`,
    anchor: `model calls ${(instant.modelMs / taskCount).toFixed(2)} ms/task`,
    aim: `< ${aims.perTaskMs} ms`,
    met: meets(perTask, (ms) => ms < aims.perTaskMs)
  })
  recordVerdict({
    figure: `wall time of ${taskCount} studio tasks, 4 at once`,
    measured: `${paced.spanMs} ms, ${ratio.toFixed(2)}× ideal`,
    anchor: `idealWallTime ${paced.ideal} ms`,
    aim: `≤ ${aims.overIdeal}× ideal`,
    met: meets(ratio, (r) => r <= aims.overIdeal)
  })
}

if (import.meta.main) await benchPipeline()
