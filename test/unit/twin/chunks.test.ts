/**
 * A file's text cut into memory-sized pieces (paragraphs packed, a long one cut at a space, nothing blank), and the
 * line its listing shows.
 */
import { describe, expect, it } from "vitest"
import { chunksOf, SUMMARY_LENGTH, summaryOf } from "../../../extensions/twin/chunks.ts"

describe("chunksOf", () => {
  it("packs paragraphs up to the size and starts a new piece when the next would not fit", () => {
    expect(chunksOf("one two\n\nthree\n\n\n  \n\nfour five six", 14)).toEqual(["one two\n\nthree", "four five six"])
  })

  it("cuts a paragraph longer than the size at its last space before the limit, or at the limit", () => {
    expect(chunksOf("aaaa bbbb cccc dddd", 10)).toEqual(["aaaa bbbb", "cccc dddd"])
    expect(chunksOf("x".repeat(25), 10)).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)])
  })

  it("answers nothing for blank text", () => {
    expect(chunksOf(" \n\n \t", 10)).toEqual([])
  })
})

describe("summaryOf", () => {
  it("answers the first non-blank line without Markdown marks, spaces collapsed", () => {
    expect(summaryOf("\n\n#  Biscuit   the dog\n\nText")).toBe("Biscuit the dog")
    expect(summaryOf("- first item\n- second")).toBe("first item")
    expect(summaryOf("   \n\t\n")).toBeNull()
  })

  it("cuts a long line at a word with an ellipsis, within the length", () => {
    const line = "word ".repeat(60)
    const summary = summaryOf(line)!
    expect(summary.endsWith("…")).toBe(true)
    expect(summary.length).toBeLessThanOrEqual(SUMMARY_LENGTH)
    expect(summary.slice(0, -1).endsWith("word")).toBe(true)
  })
})
