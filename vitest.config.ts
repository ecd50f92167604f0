import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts", "test/api/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } }
  }
})
