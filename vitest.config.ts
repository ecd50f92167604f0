import { readdirSync, readFileSync } from "node:fs"
import { defineConfig } from "vitest/config"

/**
 * Tests on Effect's TestClock: its `adjust` moves time once every fiber of the test looks suspended, and it decides
 * that by polling with real timers. What an earlier file left in a shared worker shifts that polling (which leftover
 * is not known: docs/decisions.md), and in some orders a loop saw the wrong time (the scheduler fired a job early,
 * the courier backed off from hours later). Each of these files runs in a fresh worker thread of its own.
 */
const onTestClock = readdirSync("test", { recursive: true, encoding: "utf8" })
  .map((file) => `test/${file}`)
  .filter((file) => /^test\/(unit|api)\/.*\.test\.ts$/.test(file))
  .filter((file) => readFileSync(file, "utf8").includes('from "effect/TestClock"'))

export default defineConfig({
  test: {
    globalSetup: ["test/support/bundle-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Isolation is the pool's, not the project's: the node's tests share a worker process from one file to the next;
    // the TestClock's files get a fresh worker thread each.
    poolOptions: {
      // Each worker keeps the modules it has loaded from one file to the next. Loading the node's module graph afresh
      // for every file (vitest's default) cost about 2.7 s a file, more than half the suite's CPU; no test relies on a
      // fresh module state (each builds its own node, and one that sets an environment variable removes it after).
      forks: { maxForks: 2, minForks: 1, isolate: false },
      threads: { maxThreads: 1, minThreads: 1, isolate: true }
    },
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          pool: "forks",
          include: ["test/unit/**/*.test.ts", "test/api/**/*.test.ts"],
          exclude: onTestClock
        }
      },
      { extends: true, test: { name: "test-clock", pool: "threads", include: onTestClock } }
    ]
  }
})
