/**
 * Work done once per connection across the processes of a cluster (issue 16 item 3): two real
 * node processes (host/bundled-start.ts), each a socket runner at its own CLUSTER_RUNNER_ADDRESS, over one
 * PostgreSQL database, and a loopback Google counting its token calls. A connection's expired
 * token asked for on both processes at once is renewed once; a mail sync running through one
 * process is running for the other too (409 sync_running), a process starting meanwhile leaves it
 * running rather than calling it abandoned, and the sync of a process killed with SIGKILL reads as
 * stopped once its lease lapses, when the other process may sync again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { type FakeGoogle, startGoogle } from "../support/google.ts"
import { attempt, Client, person, run } from "../support/node.ts"
import { startPostgres, type TestPostgres } from "../support/postgres.ts"
import { until } from "../support/until.ts"

let google: FakeGoogle
let cluster: TestPostgres
let env: Record<string, string>
const ownerCode = `owner-code-claims-${process.pid}`
const processes: Array<ChildNode> = []
const registration = person(ownerCode)
/** The owner's session on each process, by index. */
const owners: Array<Client> = []

/** A process of the cluster at its own runner address. */
const startProcess = async (port?: number) => {
  const child = await startChildNode({
    ownerCode,
    ...(port === undefined ? {} : { port }),
    env: { ...env, CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}` }
  })
  processes.push(child)
  return child
}

const signIn = async (child: ChildNode) => {
  const client = new Client(child.url)
  await run(client.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  return client
}

/** One navigation as the person's browser makes it: their cookies, redirects not followed. */
const navigate = async (client: Client, url: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  return { status: response.status, location: response.headers.get("location"), text: await response.text() }
}

const refreshes = () => google.tokenCalls.filter((call) => call.grant === "refresh_token").length

const mailStatus = async (client: Client) =>
  (await run(client.api.twin.status())).providers.find((provider) => provider.provider === "mail_a")!

beforeAll(async () => {
  google = await startGoogle()
  cluster = await startPostgres()
  const port = await freePort()
  env = {
    DATABASE_URL: await cluster.createDatabase(),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...google.env,
    ENCRYPTION_KEY: "a long passphrase for the tests"
  }
  // The first listens at PUBLIC_URL: the consent screen sends the browser back there.
  const first = await startProcess(port)
  const owner = new Client(first.url)
  await run(owner.api.authPublic.register({ payload: registration }))
  // The consent's token lapses within the minute a token is renewed ahead: the next call anywhere renews it.
  google.state.expiresIn = 30
  const start = await navigate(owner, `${first.url}/api/connections/mail_a/auth`)
  const screen = await navigate(owner, start.location!)
  const callback = await navigate(owner, screen.location!)
  expect(callback.status, callback.text).toBe(302)
  google.state.expiresIn = 3600
  // The second process starts after the consent, so it holds the connection's secret as the first does.
  const second = await startProcess()
  owners.push(owner, await signIn(second))
}, 180_000)
afterAll(async () => {
  await Promise.all(processes.map((child) => child.close()))
  await google?.close()
  cluster?.stop()
})

describe("a connection's work, once across processes", () => {
  it("renews an expired token once when both processes ask for it at once", async () => {
    const before = refreshes()
    const reads = await Promise.all(
      [0, 1, 0, 1, 0, 1].map((index) =>
        attempt(owners[index]!.api.studioSkills.invokeSkill({ payload: { name: "email.read", input: { limit: 1 } } }))
      )
    )
    expect(reads.map((read) => read.ok)).toEqual(reads.map(() => true))
    expect(refreshes()).toBe(before + 1)
    // Both processes now use the renewed token: more reads renew nothing.
    await run(owners[1]!.api.studioSkills.invokeSkill({ payload: { name: "email.read", input: { limit: 1 } } }))
    await run(owners[0]!.api.studioSkills.invokeSkill({ payload: { name: "email.read", input: { limit: 1 } } }))
    expect(refreshes()).toBe(before + 1)
  }, 120_000)

  /**
   * Starts a mail sync through the first process and answers once it is held at its mailbox listing; the answer lets it
   * go.
   */
  const holdSync = async () => {
    let release = () => {}
    google.state.listGate = new Promise<void>((resolve) => (release = resolve))
    const letGo = () => {
      google.state.listGate = null
      release()
    }
    const listings = () => google.apiCalls.filter((call) => call.path.endsWith("/messages")).length
    const listed = listings()
    try {
      expect(await run(owners[0]!.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toEqual({
        started: true
      })
      await until(
        "the sync's listing",
        async () => {
          const value = await listings()
          return value > listed ? value : undefined
        },
        60_000
      )
    } catch (error) {
      letGo()
      throw error
    }
    return letGo
  }

  /** Runs `body` while a mail sync started through the first process is held, then lets it finish. */
  const whileSyncRuns = async (body: () => Promise<void>) => {
    const letGo = await holdSync()
    try {
      await body()
    } finally {
      letGo()
    }
    const done = await until(
      "the sync's end",
      async () => {
        const value = await mailStatus(owners[1]!)
        return value.sync.status !== "running" ? value : undefined
      },
      60_000,
      250
    )
    expect(done.sync).toMatchObject({ status: "done", error: null })
  }

  it("answers a sync asked through the other process while one runs with 409 sync_running, and syncs once it ended", async () => {
    await whileSyncRuns(async () => {
      const second = await attempt(owners[1]!.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))
      expect(second).toMatchObject({ ok: false, status: 409, body: { error: "sync_running" } })
      expect((await mailStatus(owners[1]!)).sync.status).toBe("running")
    })
    expect(await run(owners[1]!.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toEqual({
      started: true
    })
    await until(
      "the second sync's end",
      async () => {
        const value = await mailStatus(owners[0]!)
        return value.sync.status === "done" ? value : undefined
      },
      60_000,
      250
    )
  }, 180_000)

  it("leaves a sync running on one process running when another process starts", async () => {
    await whileSyncRuns(async () => {
      // A third process starts (as a restarted one would): the first's sync is not its to abandon.
      const third = await startProcess()
      const thirdOwner = await signIn(third)
      expect((await mailStatus(thirdOwner)).sync).toMatchObject({ status: "running", error: null })
      expect((await mailStatus(owners[0]!)).sync).toMatchObject({ status: "running", error: null })
    })
  }, 180_000)

  it("reads a sync whose process was killed as stopped once its lease lapses, and syncs it through the other process", async () => {
    const letGo = await holdSync()
    try {
      expect(await processes[0]!.kill("SIGKILL")).toBe("SIGKILL")
    } finally {
      letGo()
    }
    // Until the lease lapses (at most SYNC_LEASE_MS after its last renewal) the sync is the dead process's.
    expect(await attempt(owners[1]!.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toMatchObject({
      status: 409,
      body: { error: "sync_running" }
    })
    const stopped = await until(
      "the lease's lapse",
      async () => {
        const value = await mailStatus(owners[1]!)
        return value.sync.status !== "running" ? value : undefined
      },
      60_000,
      250
    )
    expect(stopped.sync).toMatchObject({
      status: "error",
      error: "The node stopped before this sync finished; sync again."
    })
    expect(await run(owners[1]!.api.twin.sync({ path: { provider: "mail_a" }, urlParams: {} }))).toEqual({
      started: true
    })
    await until(
      "the new sync's end",
      async () => {
        const value = await mailStatus(owners[1]!)
        return value.sync.status === "done" ? value : undefined
      },
      60_000,
      250
    )
  }, 180_000)
})
