import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/api/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    // Each worker keeps the modules it has loaded from one file to the next. Loading the node's
    // module graph afresh for every file (vitest's default) cost about 2.7 s a file, more than half
    // the suite's CPU; no test relies on a fresh module state (each builds its own node, and one that
    // sets an environment variable removes it after).
    isolate: false
  }
})
