/**
 * One node as two processes: two real nodes (host/bundled-start.ts) over one PostgreSQL database and one
 * files folder, each a socket runner at its own CLUSTER_RUNNER_ADDRESS. Both serve the API; a
 * studio run started through the first runs on whichever runner holds its entity's shard (its
 * model calls carry that process's own API key, so the scripted model server tells them apart);
 * that runner is killed with SIGKILL mid-run, the survivor takes its shards and the run finishes.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { Client, person, run } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { callsFor, scriptStudio } from "./projects-scripted.ts"
import { startGenerator, twoStepGenerator, untilSettled } from "./projects-support.ts"
import { until } from "../support/until.ts"

let models: OpenAiServer
let cluster: TestPostgres
let databaseUrl: string
let filesDir: string
const runners: Array<ChildNode> = []

beforeAll(async () => {
  models = await startOpenAiServer()
  cluster = await startPostgres()
  databaseUrl = await cluster.createDatabase()
  filesDir = mkdtempSync(join(tmpdir(), "runners-files-"))
}, 120_000)
afterAll(async () => {
  await Promise.all(runners.map((runner) => runner.close()))
  await models?.close()
  cluster?.stop()
  if (filesDir !== undefined) rmSync(filesDir, { recursive: true, force: true })
})

const ownerCode = `owner-code-runners-${process.pid}`
const keyOf = (index: number) => `sk-runner-${index}`

const startRunner = async (index: number) => {
  const address = `127.0.0.1:${await freePort()}`
  const runner = await startChildNode({
    ownerCode,
    env: {
      DATABASE_URL: databaseUrl,
      FILES_DIR: filesDir,
      CLUSTER_RUNNER_ADDRESS: address,
      LLM_BASE_URL: models.baseUrl,
      LLM_API_KEY: keyOf(index),
      LLM_LOCAL: "false"
    }
  })
  runners.push(runner)
  return { runner, address }
}

/** Which process made a model call: the API key it sent. */
const callerOf = (request: { readonly headers: Readonly<Record<string, string | string[] | undefined>> }) =>
  [0, 1].find((index) => request.headers.authorization === `Bearer ${keyOf(index)}`)

const query = async <Row extends pg.QueryResultRow>(text: string) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    return (await client.query<Row>(text)).rows
  } finally {
    await client.end()
  }
}

const registeredRunners = async () =>
  (await query<{ address: string }>("SELECT address FROM cluster_runners ORDER BY address")).map((row) => row.address)

/**
 * The runners' connections whose last statement is still the one a runner storage opens its reserved connection with:
 * a storage that never took a shard lock (a second one, built beside the runner's own).
 */
const unusedStorageConnections = async () =>
  (
    await query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'node' AND query = 'SELECT pg_backend_pid()'`
    )
  )[0]!.count

it("serves from both runners and finishes a run on the survivor after SIGKILL of its runner", async () => {
  const [a, b] = await Promise.all([startRunner(0), startRunner(1)])
  for (const { runner } of [a, b]) {
    // A runner that stopped after listening says why in its output.
    const health = await run(new Client(runner.url).api.health.health()).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${a.runner.output()}\n---\n${b.runner.output()}`)
    })
    expect(health).toMatchObject({ ok: true })
  }
  expect(await registeredRunners()).toEqual([a.address, b.address].sort())
  // Each runner has one runner storage, the library's, which its liveness watch uses too: once both hold their shards,
  // no storage's reserved connection lies unused (kernel/actors/runner-liveness.ts).
  let unused = -1
  await until(
    () => `no runner storage's connection left unused (${unused} still are)`,
    async () => {
      unused = await unusedStorageConnections()
      return unused === 0
    },
    15_000
  )

  // Registered through A, signed in through B: one node.
  const owner = new Client(a.runner.url)
  const registration = person(ownerCode)
  await run(owner.api.authPublic.register({ payload: registration }))
  const onB = new Client(b.runner.url)
  await run(onB.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))

  // The report's first model call hangs: the run is mid-task on the runner that holds its entity.
  scriptStudio(models, { delayMs: (title) => (title.startsWith("Report") ? 60_000 : 0) })
  const generator = await twoStepGenerator(owner)
  const started = await startGenerator(owner, generator.id, { topic: "sencha" })
  const hanging = await until("the report's first model call", () => callsFor(models, "Report on sencha")[0], 30_000)
  const holder = callerOf(hanging)
  expect(holder).toBeDefined()
  const notesCalls = callsFor(models, "Notes on sencha").length

  scriptStudio(models)
  const killed = [a, b][holder!]!
  const survivor = [a, b][1 - holder!]!
  const reportCallsBefore = callsFor(models, "Report on sencha").length
  const killedAt = Date.now()
  expect(await killed.runner.kill()).toBe("SIGKILL")
  // The entity answers again when the survivor's runner makes the report's next model call.
  const resumed = await until(
    "the report's model call from the surviving runner",
    () =>
      callsFor(models, "Report on sencha")
        .slice(reportCallsBefore)
        .find((request) => callerOf(request) === 1 - holder!),
    60_000
  )
  const failoverMs = Date.now() - killedAt
  expect(resumed).toBeDefined()

  const survivorClient = new Client(survivor.runner.url)
  await run(
    survivorClient.api.authPublic.login({ payload: { email: registration.email, password: registration.password } })
  )
  const detail = await untilSettled(survivorClient, started.id, undefined, 60_000)
  expect(detail.project.status).toBe("done")
  expect(detail.tasks.map((task) => task.status)).toEqual(["done", "done"])
  // The notes task finished before the kill and was not done again.
  expect(callsFor(models, "Notes on sencha").length).toBe(notesCalls)
  // The killed runner's connection, and its liveness lock, went at once: its shards moved long before the heartbeat's
  // 8 s expiry would have moved them (kernel/actors/runner-liveness.ts).
  expect(failoverMs).toBeLessThan(6000)
}, 180_000)

it("refuses to start as a runner without PostgreSQL, saying why", async () => {
  const address = `127.0.0.1:${await freePort()}`
  await expect(startChildNode({ env: { CLUSTER_RUNNER_ADDRESS: address, DATABASE_URL: "" } })).rejects.toThrow(
    /CLUSTER_RUNNER_ADDRESS needs DATABASE_URL: the runners of a cluster share one PostgreSQL database/
  )
}, 60_000)
