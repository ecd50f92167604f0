/**
 * The scheduler survives a restart: a reminder held until its event starts is written with its
 * release job; the node stops before that time and comes back (same data folder) two hours
 * later on its Clock, and the reminder is on the desktop at once, its job gone. A nudge held in
 * quiet hours is let through the same way once the window has ended.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import * as Schema from "effect/Schema"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { Scheduler } from "../../extensions/time/scheduler.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { Client, registerOwner, run, startNode } from "../support/node.ts"
import { shiftedClock } from "../support/shifted-clock.ts"

const dataDir = mkdtempSync(join(tmpdir(), "time-durable-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

it("fires a reminder and a held nudge whose time passed while the node was down as soon as it is back", async () => {
  const first = await startNode({ dataDir })
  const { client, registration, being } = await registerOwner(first)
  const startAt = new Date(Date.now() + 3_600_000).toISOString()
  const event = await run(
    client.api.twinTime.createEvent({ payload: { title: "Take the cake out", startAt, remind: true } })
  )
  // Quiet hours from five minutes ago to an hour from now (UTC: the zone of a being whose profile names none).
  // One reading of the clock: two could straddle the hour.
  const now = new Date()
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes()
  await run(
    client.api.twinHush.putHush({ payload: { quietStart: (minute + 1435) % 1440, quietEnd: (minute + 60) % 1440 } })
  )
  const nudge = await inNode(
    first,
    Effect.flatMap(Signals, (signals) =>
      signals.raise(being.id, Schema.decodeUnknownSync(SignalInput)({ title: "A quiet thought" }), "test", "proactive")
    )
  )
  expect(nudge.delivered).toBe(false)
  const open = () => run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
  expect(await open()).toEqual([])
  await first.close()

  const second = await startNode({ dataDir }, { clock: shiftedClock("2 hours") })
  try {
    const again = new Client(second.url)
    await run(again.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
    const openAgain = () => run(again.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    // The release may land before this tab opens or after: wait for its event only if it has not.
    const tab = await LiveTab.open(second, again)
    for (const id of [event.signalId, nudge.signal.id]) {
      if (!(await openAgain()).some((signal) => signal.id === id))
        await tab.nextOf("signal.created", (frame) => frame.signal.id === id)
    }
    await tab.close()
    const signals = await openAgain()
    expect(signals.map((signal) => [signal.id, signal.title]).sort()).toEqual(
      [
        [event.signalId, "Take the cake out"],
        [nudge.signal.id, "A quiet thought"]
      ].sort()
    )
    expect(signals.find((signal) => signal.id === event.signalId)).toMatchObject({ kind: "reminder", dueAt: startAt })
    const job = await inNode(
      second,
      Effect.flatMap(Scheduler, (scheduler) => scheduler.find(`signal.release:${event.signalId}`))
    )
    expect(Option.isNone(job)).toBe(true)
  } finally {
    await second.close()
  }
}, 30_000)
