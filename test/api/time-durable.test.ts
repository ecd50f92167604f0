/**
 * The scheduler survives a restart: a reminder held until its event starts is written with its
 * release job; the node stops before that time and comes back (same data folder) two hours
 * later on its Clock, and the reminder is on the desktop at once, its job gone.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { Client, registerOwner, run, startNode } from "../support/node.ts"
import { shiftedClock } from "../support/shifted-clock.ts"

const dataDir = mkdtempSync(join(tmpdir(), "time-durable-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it("fires a reminder whose time passed while the node was down as soon as it is back", async () => {
  const first = await startNode({ dataDir })
  const { client, registration } = await registerOwner(first)
  const startAt = new Date(Date.now() + 3_600_000).toISOString()
  const event = await run(client.api.twinTime.createEvent({ payload: { title: "Take the cake out", startAt, remind: true } }))
  const open = () => run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100 } }))
  expect(await open()).toEqual([])
  await first.close()

  const second = await startNode({ dataDir }, { clock: shiftedClock("2 hours") })
  try {
    const again = new Client(second.url)
    await run(again.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
    const openAgain = () => run(again.api.desktop.listSignals({ urlParams: { status: "open", limit: 100 } }))
    // The release may land before this tab opens or after: wait for its event only if it has not.
    const tab = await LiveTab.open(second, again)
    if ((await openAgain()).length === 0) await tab.nextOf("signal.created", (frame) => frame.signal.id === event.signalId)
    await tab.close()
    const signals = await openAgain()
    expect(signals.map((signal) => [signal.id, signal.kind, signal.title, signal.dueAt])).toEqual([
      [event.signalId, "reminder", "Take the cake out", startAt]
    ])
    const job = await inNode(second, Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${event.signalId}`)))
    expect(Option.isNone(job)).toBe(true)
  } finally {
    await second.close()
  }
}, 30_000)
