/** A file's text cut into memory-sized pieces: paragraphs packed, a long one cut at a space, nothing blank. */
import { describe, expect, it } from "vitest"
import { chunksOf } from "../../../extensions/twin/chunks.ts"

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
