import { defineConfig } from "vitest/config"

/** End-to-end flows: a real node process per test file, driven through Chromium. */
export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    globalSetup: ["test/e2e/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A browser on a busy machine (the whole suite, two files at once) can take seconds to show an
    // answer; vitest's default of one second for expect.poll made flows fail on load, not on bugs.
    expect: { poll: { timeout: 10_000 } },
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
