/**
 * A preload (`node --import <this file> …`) for the live-channel section's server processes: it
 * samples the process's event-loop delay (`monitorEventLoopDelay`, 1 ms resolution) and, on
 * SIGUSR2, prints `loop-delay <json>` (mean, p50, p99, max in ms) and starts a fresh histogram.
 * It loads nothing else, so the program it watches stays what it was. With LOOP_DELAY_EXIT_ON_TERM set (a program
 * with no SIGTERM handler of its own: the anchor), SIGTERM exits the process normally, so `--cpu-prof` writes its profile.
 */
import { monitorEventLoopDelay } from "node:perf_hooks"

let histogram = monitorEventLoopDelay({ resolution: 1 })
histogram.enable()
const ms = (ns: number) => Math.round(ns / 1e4) / 100

process.on("SIGUSR2", () => {
  histogram.disable()
  const { mean, max } = histogram
  const figures = {
    meanMs: ms(mean),
    p50Ms: ms(histogram.percentile(50)),
    p99Ms: ms(histogram.percentile(99)),
    maxMs: ms(max)
  }
  console.log(`loop-delay ${JSON.stringify(figures)}`)
  histogram = monitorEventLoopDelay({ resolution: 1 })
  histogram.enable()
})

if (process.env.LOOP_DELAY_EXIT_ON_TERM) process.on("SIGTERM", () => process.exit(0))
