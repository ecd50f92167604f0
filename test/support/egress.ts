/**
 * What the egress tests share (docs/privacy.md "How it is checked"): the preload that records
 * every socket a node process opens (./egress-hook.ts), reading its log back, and the check
 * itself: every recorded destination is in the allowed list, and each flow's own destination
 * was recorded (so a flow that never ran fails the test instead of passing it).
 */
import { DEFAULT_LOCAL_LLM_PORTS } from "../../extensions/models/settings.ts"
import { readFileSync } from "node:fs"
import { expect } from "vitest"

/** The preload, for `startChildNode({ nodeFlags: ["--import", egressHook] })`. */
export const egressHook = new URL("./egress-hook.ts", import.meta.url).pathname

/** `host:port` of a URL, as the hook records it (the scheme's port when the URL names none). */
export const hostPort = (url: string) => {
  const parsed = new URL(url.replace(/^(smtp|imap)s?:/, "http:"))
  const port = parsed.port || ({ "https:": "443", "http:": "80" } as Record<string, string>)[parsed.protocol] || ""
  return `${parsed.hostname}:${port}`
}

/**
 * On-host sockets a node may open: the Docker engine's, which code.execute's container tier asks whether it runs,
 * and the loopback ports it asks once at start for a local model server (LOCAL_LLM_PORTS).
 */
export const onHost = [
  `unix:${process.env.DOCKER_HOST?.startsWith("unix://") ? process.env.DOCKER_HOST.slice("unix://".length) : "/var/run/docker.sock"}`,
  ...DEFAULT_LOCAL_LLM_PORTS.map((port) => `127.0.0.1:${port}`)
]

/** Every destination recorded in `log` so far, once each. */
export const dialled = (log: string) =>
  [
    ...new Set(
      readFileSync(log, "utf8")
        .split("\n")
        .filter((line) => line !== "")
    )
  ].sort()

/** The destinations outside the allowed list: what the test fails on. */
export const unlisted = (log: string, allowed: ReadonlyArray<string>) =>
  dialled(log).filter((destination) => !allowed.includes(destination))

/**
 * The check, for one flow or several: each flow's destination was dialled (it really ran), and
 * nothing outside `allowed` (those, plus every destination another flow of the same node may
 * reach, plus the host's own sockets) was.
 */
export const expectOnly = (log: string, flows: ReadonlyArray<string>, allowed: ReadonlyArray<string>) => {
  expect(dialled(log)).toEqual(expect.arrayContaining([...flows]))
  expect(unlisted(log, [...onHost, ...flows, ...allowed])).toEqual([])
}
