import { describe, expect, it } from "vitest"
import { join } from "node:path"
import { tempDir } from "../../support/temp-dir.ts"
import { startJournalNode, type JournalProcess } from "./journal-process.ts"

const freshDatabase = () => join(tempDir("actors"), "node.db")

/** Sends SIGTERM and says how the process ended and how long after the signal. */
const terminate = async (node: JournalProcess) => {
  const sentAt = performance.now()
  node.kill("SIGTERM")
  const exit = await node.exited
  return { ...exit, millis: performance.now() - sentAt }
}

describe("SIGTERM", () => {
  it("releases the whole node and exits 0", async () => {
    const node = startJournalNode({ DB_FILE: freshDatabase() })
    await node.printed("ready")
    const ended = await terminate(node)
    expect(ended).toMatchObject({ code: 0, signal: null })
    expect(ended.millis).toBeLessThan(5000)
    expect(node.output()).toContain("released")
  })

  it("cuts off a message still being processed and exits 0 within 5 s", async () => {
    const node = startJournalNode({ DB_FILE: freshDatabase(), SEND_ON_BOOT: "m1" })
    await node.printed("attempt m1 1")
    const ended = await terminate(node)
    expect(ended).toMatchObject({ code: 0, signal: null })
    expect(ended.millis).toBeLessThan(5000)
    expect(node.output()).toContain("released")
  })

  it("exits within 5 s even when a finalizer hangs, with a failure code", async () => {
    const node = startJournalNode({ DB_FILE: freshDatabase(), HANG_ON_SHUTDOWN: "1" })
    await node.printed("ready")
    const ended = await terminate(node)
    expect(ended).toMatchObject({ code: 1, signal: null })
    expect(ended.millis).toBeLessThan(5000)
    expect(node.output()).toContain("shutdown did not finish")
  })
})
