/**
 * How every browser test starts Debian's Chromium (no browser is downloaded): the e2e flows
 * (test/e2e/browser.ts) and web-test-runner's element pages (web-test-runner.config.mjs). Headless,
 * quiet on a closed network, and without the browser's own interface loading in each window.
 */
export const chromiumPath = "/usr/bin/chromium"

/**
 * Playwright's own `--disable-features` (playwright-core 1.65.1, `chromiumSwitches.ts`). Chromium
 * honours only the last `--disable-features` on its command line and Playwright puts its list before
 * ours, so ours must repeat it or drop it. test/unit/support/chromium.test.ts keeps the two equal.
 */
export const playwrightDisabledFeatures = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion"
]

/**
 * Chromium 156 loads the address bar's popup, a web app of its own in a renderer of its own, into
 * every headless window: each new browser context paid for it, half of Chromium's CPU for one page
 * of ours (4.0 → 2.0 s, docs/benchmarks.md). Both names are needed; either alone leaves it loading.
 */
const ownDisabledFeatures = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

export interface ChromiumOptions {
  /** A fake microphone (a beep) that needs no permission prompt, for recording tests. */
  readonly fakeMedia?: boolean
  /** WebGL through SwiftShader (software), asked for explicitly; without it the GPU is off. */
  readonly webgl?: boolean
}

export const chromiumArgs = (options: ChromiumOptions = {}): Array<string> => [
  "--no-sandbox",
  "--headless=new",
  ...(options.webgl === true ? ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"] : ["--disable-gpu"]),
  ...(options.fakeMedia === true ? ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"] : []),
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  `--disable-features=${[...playwrightDisabledFeatures, ...ownDisabledFeatures].join(",")}`
]
