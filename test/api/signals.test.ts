import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { ActionRefused, SignalActions } from "../../actors/being/contract/signal-actions.ts"
import { RaisedSignal, Signal, SignalInput, type SignalStatus } from "../../actors/being/contract/signal.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { expectOffsetPages } from "../support/offset-pages.ts"
import {
  apiError,
  attempt,
  bodyAs,
  type Client,
  nodeWithOwner,
  refused,
  registerMember,
  run,
  type Registered
} from "../support/node.ts"

const context = nodeWithOwner((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))

const decodeInput = Schema.decodeUnknownSync(SignalInput)

/** Raises through the Signals service, as the node's own features do. */
const raise = async (beingId: string, input: Record<string, unknown>, source = "test") =>
  (
    await inNode(
      context.node,
      Effect.flatMap(Signals, (signals) => signals.raise(beingId, decodeInput(input), source, "system"))
    )
  ).signal

const decision = (title: string, action: Record<string, unknown> | null = null) => ({
  kind: "decision",
  title,
  options: [
    { id: "yes", label: "Do it" },
    { id: "no", label: "No", hint: "nothing happens" }
  ],
  action
})

/** The caller's signals of one status, newest first (100 at most, as the node's default). */
const signalsOf = (client: Client, status: SignalStatus = "open", limit = 100) =>
  run(client.api.desktop.listSignals({ urlParams: { status, limit, offset: 0 } }))

const answerSignal = (client: Client, id: string, optionId: string) =>
  client.api.desktop.answerSignal({ path: { id }, payload: { optionId } })

let actionRuns = 0

beforeAll(async () => {
  await inNode(
    context.node,
    Effect.gen(function* () {
      const actions = yield* SignalActions
      const sql = yield* SqlClient.SqlClient
      yield* actions.register("test.count", ({ optionId }) =>
        Effect.sync(() => {
          actionRuns += 1
          return { runs: actionRuns, chose: optionId }
        })
      )
      // Writes through the answer's transaction, then refuses: both the write and the answer must roll back.
      yield* actions.register("test.refuse", ({ signal }) =>
        sql`UPDATE signals SET title = 'changed by a failed action' WHERE id = ${signal.id}`.pipe(
          Effect.orDie,
          Effect.zipRight(Effect.fail(new ActionRefused({ reason: "the world said no" })))
        )
      )
    })
  )
})

let member: Registered
beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

describe("raising", () => {
  it("lets the owner raise on their own desktop (source 'owner'), and no one else", async () => {
    const tab = await LiveTab.open(context.node, context.owner.client)
    const answer = await run(
      context.owner.client.api.desktop.raiseSignal({
        payload: decodeInput({ title: "Try the desktop", priority: "high" })
      })
    )
    expect(answer.delivered).toBe(true)
    expect(answer.signal).toMatchObject({
      beingId: context.owner.being.id,
      kind: "insight",
      title: "Try the desktop",
      body: "",
      options: [],
      priority: "high",
      dueAt: null,
      action: null,
      source: "owner",
      status: "open",
      answer: null,
      actionResult: null,
      answeredAt: null
    })
    expect(await tab.ofType("signal.created")).toEqual({ type: "signal.created", signal: answer.signal })
    await tab.close()
    // Raw, with only a title (the typed client would send the contract's defaults itself): the node fills them in.
    const bare = await context.owner.client.raw("POST", "/api/desktop/signals", { title: "Only a title" })
    expect(bare.status).toBe(200)
    expect(bodyAs(RaisedSignal, bare).signal).toMatchObject({
      kind: "insight",
      title: "Only a title",
      body: "",
      options: [],
      priority: "normal",
      dueAt: null,
      action: null,
      source: "owner"
    })
    expect(
      (await refused(member.client.api.desktop.raiseSignal({ payload: decodeInput({ title: "Mine?" }) }))).status
    ).toBe(403)
  })

  it("refuses a raise beyond the limits (400) and stores nothing", async () => {
    const before = (await signalsOf(context.owner.client, "open", 200)).length
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const body of [
      { title: "" },
      { title: "x".repeat(161) },
      { title: "ok", body: "x".repeat(4001) },
      { title: "ok", options: Array.from({ length: 7 }, (_, i) => ({ id: `o${i}`, label: "L" })) },
      {
        title: "ok",
        options: [
          { id: "a", label: "A" },
          { id: "a", label: "again" }
        ]
      },
      { title: "ok", kind: "gossip" },
      { title: "ok", dueAt: "next tuesday" },
      { title: "ok", action: [1, 2] }
    ]) {
      const answer = await context.owner.client.raw("POST", "/api/desktop/signals", body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    expect((await signalsOf(context.owner.client, "open", 200)).length).toBe(before)
  })

  it("refuses, through the service as well, an input that breaks a limit", async () => {
    const tooLong = { ...decodeInput({ title: "ok" }), title: "x".repeat(161) }
    const error = await inNode(
      context.node,
      Effect.flip(Effect.flatMap(Signals, (signals) => signals.raise(member.being.id, tooLong, "test", "system")))
    )
    expect(error).toMatchObject({ _tag: "SignalInvalid", error: "invalid_request" })
    expect((await signalsOf(member.client)).some((signal) => signal.title === tooLong.title)).toBe(false)
  })

  it("gives a plugin with the signals capability a raise that lands on the owner's desktop, the plugin as source", async () => {
    const dir = join(context.node.dataDir, "plugins", "beacon")
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      join(dir, "plugin.json"),
      JSON.stringify({
        apiVersion: "1.0",
        id: "@ada/beacon",
        version: "1.0.0",
        namespace: "beacon",
        name: "Beacon",
        main: "index.js",
        capabilities: [{ kind: "signals" }],
        extensions: [{ kind: "theme", id: "glow", uses: ["signals"] }]
      })
    )
    writeFileSync(
      join(dir, "index.js"),
      `export const activate = async (context) => {
        const raised = await context.adapters.signals.raise({ kind: "alert", title: "Beacon is lit", priority: "urgent" })
        let refusal = ""
        await context.adapters.signals.raise({ title: "" }).catch((error) => { refusal = error.message })
        await context.adapters.signals.raise({ title: "Refused? " + refusal.slice(0, 100), body: raised.signalId + " " + raised.delivered })
        context.contribute("theme", "glow", { colorScheme: "dark", tokens: { background: "#000", surface: "#111", text: "#fff",
          muted: "#999", accent: "#fc0", danger: "#f00", border: "#333", focusRing: "#fc0" } })
      }\n`
    )
    const tab = await LiveTab.open(context.node, context.owner.client)
    await run(context.owner.client.api.plugins.installPlugin({ payload: { dir: "beacon", granted: ["signals"] } }))
    const lit = await tab.nextOf("signal.created", (frame) => frame.signal.title === "Beacon is lit")
    expect(lit.signal).toMatchObject({
      beingId: context.owner.being.id,
      kind: "alert",
      priority: "urgent",
      source: "plugin:@ada/beacon"
    })
    const list = await signalsOf(context.owner.client)
    const report = list.find((signal) => signal.title.startsWith("Refused? "))
    expect(report?.title).toContain("signals.raise refused the signal")
    expect(report?.body).toBe(`${lit.signal.id} true`)
    const membersList = await signalsOf(member.client)
    expect(membersList.some((signal) => signal.source === "plugin:@ada/beacon")).toBe(false)
    await tab.close()
  })
})

describe("listing", () => {
  it("lists only the caller's signals, by status (default open), newest first", async () => {
    const other = await registerMember(context.node, context.owner.client)
    const first = await raise(other.being.id, { title: "first" })
    const second = await raise(other.being.id, decision("second"))
    const third = await raise(other.being.id, { title: "third" })
    await raise(member.being.id, { title: "someone else's" })
    await run(answerSignal(other.client, second.id, "no"))
    await run(other.client.api.desktop.dismissSignal({ path: { id: first.id } }))

    const ids = async (status: SignalStatus, limit?: number) =>
      (await signalsOf(other.client, status, limit)).map((s) => s.id)
    // Raw where the query says nothing: the node's defaults are the point.
    const defaultIds = async (query = "") =>
      bodyAs(Schema.Array(Signal), await other.client.raw("GET", `/api/desktop/signals${query}`)).map((s) => s.id)
    expect(await defaultIds()).toEqual([third.id])
    expect(await ids("open")).toEqual([third.id])
    expect(await ids("answered")).toEqual([second.id])
    expect(await ids("dismissed")).toEqual([first.id])

    const more = await raise(other.being.id, { title: "fourth" })
    expect(await defaultIds()).toEqual([more.id, third.id])
    expect(await defaultIds("?limit=1")).toEqual([more.id])
    expect(await ids("open", 1)).toEqual([more.id])
    // Queries the contract's schema refuses before they leave the typed client: sent raw.
    expect((await other.client.raw("GET", "/api/desktop/signals?status=lost")).status).toBe(400)
    expect((await other.client.raw("GET", "/api/desktop/signals?limit=0")).status).toBe(400)
  })

  it("pages by `offset`, newest first: two pages are the list read at once; a bad offset is 400", async () => {
    const reader = await registerMember(context.node, context.owner.client)
    const raised = []
    for (const title of ["one", "two", "three", "four", "five"]) raised.push(await raise(reader.being.id, { title }))
    const newestFirst = raised.map((signal) => signal.id).reverse()
    expect(await expectOffsetPages(reader.client, "/api/desktop/signals", 2, 5)).toEqual(newestFirst.slice(0, 4))
    expect((await signalsOf(reader.client)).map((signal) => signal.id)).toEqual(newestFirst)
  })
})

describe("answering and dismissing", () => {
  it("answers once: the signal is answered with the option, signal.updated goes to the being, a second answer is 409", async () => {
    const signal = await raise(member.being.id, decision("Water the plants?"))
    const tab = await LiveTab.open(context.node, member.client)
    const answer = await run(answerSignal(member.client, signal.id, "yes"))
    expect(answer).toMatchObject({ id: signal.id, status: "answered", answer: "yes", actionResult: null })
    expect(Date.parse(answer.answeredAt!)).not.toBeNaN()
    expect(await tab.ofType("signal.updated")).toEqual({ type: "signal.updated", signal: answer })
    const again = await refused(answerSignal(member.client, signal.id, "no"))
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "signal_closed", details: { status: "answered" } })
    await tab.close()
  })

  it("refuses an unknown option (400), another being's signal (404), a bad body (400), a dismissed signal (409)", async () => {
    const signal = await raise(member.being.id, decision("Pick one"))
    const unknown = await refused(answerSignal(member.client, signal.id, "maybe"))
    expect(unknown.status).toBe(400)
    expect(unknown.body).toMatchObject({ error: "unknown_option", details: { options: ["yes", "no"] } })
    expect((await refused(answerSignal(context.owner.client, signal.id, "yes"))).status).toBe(404)
    expect((await refused(context.owner.client.api.desktop.dismissSignal({ path: { id: signal.id } }))).status).toBe(
      404
    )
    expect((await refused(answerSignal(member.client, "no-such-signal", "yes"))).status).toBe(404)
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const body of [{}, { optionId: 5 }, { optionId: "" }, "not json"]) {
      const bad = await member.client.raw("POST", `/api/desktop/signals/${signal.id}/answer`, body)
      expect(bad.status, JSON.stringify(body)).toBe(400)
    }
    // None of those changed it.
    expect((await signalsOf(member.client)).find((s) => s.id === signal.id)?.status).toBe("open")

    const dismissed = await run(member.client.api.desktop.dismissSignal({ path: { id: signal.id } }))
    expect(dismissed).toMatchObject({ status: "dismissed", answer: null })
    const late = await refused(answerSignal(member.client, signal.id, "yes"))
    expect(late.status).toBe(409)
    expect(late.body).toMatchObject({ error: "signal_closed", details: { status: "dismissed" } })
    expect((await refused(member.client.api.desktop.dismissSignal({ path: { id: signal.id } }))).status).toBe(409)
  })

  it("20 concurrent answers to one signal: exactly one 200, 19 × 409, and its action ran once", async () => {
    const signal = await raise(
      member.being.id,
      decision("Run the counted action?", { kind: "test.count", note: "opaque" })
    )
    const runsBefore = actionRuns
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => attempt(answerSignal(member.client, signal.id, i % 2 === 0 ? "yes" : "no")))
    )
    const statuses = answers.map((answer) => (answer.ok ? 200 : answer.status))
    expect(statuses.filter((status) => status === 200)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(19)
    expect(actionRuns - runsBefore).toBe(1)
    const won = answers.find((answer) => answer.ok)
    const winner = won?.ok ? won.value : undefined
    expect(winner?.actionResult).toEqual({ kind: "test.count", output: { runs: actionRuns, chose: winner?.answer } })
    const stored = (await signalsOf(member.client, "answered")).find((s) => s.id === signal.id)
    expect(stored?.actionResult).toEqual(winner?.actionResult)
    expect(stored?.action).toEqual({ kind: "test.count", note: "opaque" })
  })

  it("a failing action rolls the answer back: 409 action_failed, the signal stays open and unchanged", async () => {
    const signal = await raise(member.being.id, decision("Try the refusing action?", { kind: "test.refuse" }))
    const tab = await LiveTab.open(context.node, member.client)
    const answer = await refused(answerSignal(member.client, signal.id, "yes"))
    expect(answer.status).toBe(409)
    expect(answer.body).toMatchObject({
      error: "action_failed",
      details: { kind: "test.refuse", reason: "the world said no" }
    })
    const stored = (await signalsOf(member.client)).find((s) => s.id === signal.id)
    expect(stored).toEqual(signal)
    // No signal.updated went out for the answer that did not happen; the dismissal's is the first.
    await run(member.client.api.desktop.dismissSignal({ path: { id: signal.id } }))
    const updated = await tab.ofType("signal.updated")
    expect(updated.signal).toMatchObject({ id: signal.id, status: "dismissed", title: signal.title })
    await tab.close()
  })
})
