// The Lit element tests (test/elements/), run by `npm run test:elements`: each file in its own page of
// Debian's Chromium through the Playwright launcher (no browser is downloaded).
import { globSync } from "node:fs"
import { build } from "esbuild"
import { playwrightLauncher } from "@web/test-runner-playwright"
import { chromiumArgs, chromiumPath } from "./test/support/chromium.ts"

/**
 * The test files reach the page bundled by esbuild the way ui/build.ts bundles the app (Lit's production build,
 * TC39 decorators lowered for es2022): built once, all together, what they share split into chunks, and served from
 * memory. Served module by module instead, a place's test made its page fetch about 700 files one request at a time
 * (10 of a 14 s file). Source maps without the sources' text: a failure still names the test's own line.
 */
const testFiles = "test/elements/**/*.test.ts"
/** Served path ("/test/elements/x.test.ts", "/test/elements/chunk-….js") → what esbuild made for it. */
let built
const bundleOfTests = async () => {
  const result = await build({
    entryPoints: globSync(testFiles),
    outdir: "test/elements",
    outbase: "test/elements",
    bundle: true,
    splitting: true,
    write: false,
    format: "esm",
    target: "es2022",
    conditions: ["production"],
    sourcemap: true,
    sourcesContent: false,
    tsconfig: "./tsconfig.json",
    logLevel: "warning"
  })
  const root = process.cwd()
  return new Map(
    result.outputFiles.map((file) => [file.path.slice(root.length).replace(/\.test\.js$/, ".test.ts"), file])
  )
}
const bundleTestFiles = {
  name: "bundle-test-files",
  async serve(context) {
    if (!context.path.startsWith("/test/elements/")) return undefined
    built ??= bundleOfTests()
    const file = (await built).get(context.path)
    if (file === undefined) return undefined
    return { body: file.text, type: context.path.endsWith(".map") ? "json" : "js" }
  }
}

export default {
  files: [testFiles],
  // What the test runner's own page loads (its mocha and the framework), module by module.
  nodeResolve: true,
  // One browser, two pages at a time: the machine has two cores shared with others.
  concurrency: 2,
  concurrentBrowsers: 1,
  // Ceilings for a busy shared machine, not waits: the tests wait on events and what the page shows.
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 120_000,
  plugins: [bundleTestFiles],
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: {
        executablePath: chromiumPath,
        args: chromiumArgs()
      }
    })
  ],
  // The app's design tokens (custom properties on :root), so colours and sizes are the real ones
  // when axe checks contrast.
  testRunnerHtml: (testFramework) => `<!doctype html>
<html lang="en">
  <head><link rel="stylesheet" href="/ui/styles/app.css"></head>
  <body><script type="module" src="${testFramework}"></script></body>
</html>`,
  testFramework: { config: { timeout: 30_000 } }
}
