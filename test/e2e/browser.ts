/** Debian's Chromium, driven by playwright-core, headless and quiet on a closed network. */
import { type Browser, chromium } from "playwright-core"
import { type ChromiumOptions, chromiumArgs, chromiumPath } from "../support/chromium.ts"

export const launchBrowser = (options: ChromiumOptions = {}): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath, args: chromiumArgs(options) })
