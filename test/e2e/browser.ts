/** Debian's Chromium, driven by playwright-core, headless and quiet on a closed network. */
import { type Browser, chromium } from "playwright-core"

export interface BrowserOptions {
  /** A fake microphone (a beep) that needs no permission prompt, for recording tests. */
  readonly fakeMedia?: boolean
}

export const launchBrowser = (options: BrowserOptions = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      ...(options.fakeMedia === true ? ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"] : []),
      "--no-sandbox",
      "--headless=new",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run"
    ]
  })
