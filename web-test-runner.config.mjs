// The Lit element tests (test/elements/), run by `npm run test:elements`: each file in its own page of
// Debian's Chromium through the Playwright launcher (no browser is downloaded), the UI's TypeScript
// served through esbuild the way ui/build.ts bundles it (TC39 decorators lowered for es2022).
import { esbuildPlugin } from "@web/dev-server-esbuild"
import { playwrightLauncher } from "@web/test-runner-playwright"

export default {
  files: ["test/elements/**/*.test.ts"],
  // Lit's production build, as esbuild bundles it for the app.
  nodeResolve: { exportConditions: ["production"] },
  // One browser, two pages at a time: the machine has two cores shared with others.
  concurrency: 2,
  concurrentBrowsers: 1,
  // Ceilings for a busy shared machine, not waits: the tests wait on events and what the page shows.
  browserStartTimeout: 60_000,
  testsStartTimeout: 60_000,
  testsFinishTimeout: 120_000,
  plugins: [esbuildPlugin({ ts: true, target: "es2022", tsconfig: "./tsconfig.json" })],
  browsers: [
    playwrightLauncher({
      product: "chromium",
      launchOptions: {
        executablePath: "/usr/bin/chromium",
        args: [
          "--no-sandbox",
          "--headless=new",
          "--disable-gpu",
          "--disable-dev-shm-usage",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync",
          "--no-first-run"
        ]
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
