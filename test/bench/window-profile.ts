/**
 * A CPU profile of one measured window of a bench, not of the whole run (two nodes' boot would
 * drown it): with `BENCH_CPU_PROFILE=<file>` set, `start` begins the inspector's sampling
 * profiler in this process and `stop` writes the `.cpuprofile` there (open it in Chrome's DevTools
 * or read its frames); unset, both do nothing.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"

const file = process.env.BENCH_CPU_PROFILE
let session: Session | null = null

export const startWindowProfile = async () => {
  if (file === undefined || file === "") return
  session = new Session()
  session.connect()
  await session.post("Profiler.enable")
  await session.post("Profiler.setSamplingInterval", { interval: 100 })
  await session.post("Profiler.start")
}

export const stopWindowProfile = async () => {
  if (session === null || file === undefined) return
  const { profile } = await session.post("Profiler.stop")
  writeFileSync(file, JSON.stringify(profile))
  session.disconnect()
  session = null
  console.log(`CPU profile of the measured window: ${file}`)
}
