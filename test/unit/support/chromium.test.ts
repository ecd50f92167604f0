/**
 * The browser tests' Chromium: its `--disable-features` keeps Playwright's own list (Chromium reads
 * only the last such switch) and no window of it loads the browser's own interface pages.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { describe, expect, it } from "vitest"
import { chromiumArgs, chromiumPath, playwrightDisabledFeatures } from "../../support/chromium.ts"

describe("the browser tests' Chromium", () => {
  it("repeats every feature Playwright disables, so our switch drops none of them", () => {
    const bundle = readFileSync(
      join(createRequire(import.meta.url).resolve("playwright-core/package.json"), "..", "lib", "coreBundle.js"),
      "utf8"
    )
    const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle)?.[1]
    expect(list, "Playwright's list of disabled features, where playwright-core 1.65 keeps it").toBeDefined()
    const theirs = [...list!.matchAll(/^\s*"([^"]+)"/gm)].map((match) => match[1])
    expect(theirs.length).toBeGreaterThan(5)
    expect(playwrightDisabledFeatures).toEqual(theirs)
  })

  it("opens a page without the address bar's popup, a web app of its own, loading beside it", async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs() })
    try {
      await (await browser.newContext()).newPage()
      const { targetInfos } = await (await browser.newBrowserCDPSession()).send("Target.getTargets", {
        filter: [{}]
      })
      expect(targetInfos.map((target) => `${target.type} ${target.url}`)).toEqual(
        expect.arrayContaining(["page about:blank"])
      )
      expect(targetInfos.filter((target) => target.url.startsWith("chrome://"))).toEqual([])
    } finally {
      await browser.close()
    }
  })
})
