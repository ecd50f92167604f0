import { describe, expect, it } from "vitest"
import { freeSlug, slugify } from "../../../extensions/generators/slug.ts"
import { slugPattern } from "../../../extensions/generators/contract/generator.ts"

describe("slugify", () => {
  it("keeps letters and digits, folds accents, joins the rest with single hyphens", () => {
    expect(slugify("Café Menu: Spring!")).toBe("cafe-menu-spring")
    expect(slugify("  Q3 -- OKR   review ")).toBe("q3-okr-review")
    expect(slugify("🎉🎉")).toBe("generator")
  })

  it("always makes a valid slug, short enough for a suffix", () => {
    for (const name of ["A".repeat(200), "x - ".repeat(50), "Ünïcödé ñame", "--a--"]) {
      const slug = slugify(name)
      expect(slug, name).toMatch(slugPattern)
      expect(slug.length).toBeLessThanOrEqual(60)
    }
  })
})

describe("freeSlug", () => {
  it("answers the base when free, else the first free -2, -3...", () => {
    expect(freeSlug("post", new Set())).toBe("post")
    expect(freeSlug("post", new Set(["post"]))).toBe("post-2")
    expect(freeSlug("post", new Set(["post", "post-2", "post-3"]))).toBe("post-4")
    expect(freeSlug("post", new Set(["post-2"]))).toBe("post")
  })

  it("stays within 64 characters", () => {
    const base = "a".repeat(64)
    const slug = freeSlug(base, new Set([base]))
    expect(slug).toMatch(slugPattern)
    expect(slug.length).toBeLessThanOrEqual(64)
    expect(slug.endsWith("-2")).toBe(true)
  })
})
