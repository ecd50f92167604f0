/** How much of a long message one speech call reads: up to 4,096 characters, cut after a sentence that fits. */
import { describe, expect, it } from "vitest"
import { spokenPart } from "../../../extensions/threads/thread-speech.ts"

describe("the part of a message read aloud", () => {
  it("is the whole message when it fits", () => {
    expect(spokenPart("Short and sweet.")).toEqual({ text: "Short and sweet.", cut: false })
  })

  it("ends after the last sentence that fits, and says it was cut", () => {
    const sentence = "The tide comes in over the sand. "
    const long = sentence.repeat(200)
    const part = spokenPart(long)
    expect(part.cut).toBe(true)
    expect(part.text.length).toBeLessThanOrEqual(4096)
    expect(part.text.endsWith("sand.")).toBe(true)
    expect(part.text.length).toBeGreaterThan(4096 - sentence.length)
  })

  it("ends at a word when no sentence ends in the second half", () => {
    const part = spokenPart("word ".repeat(1000), 100)
    expect(part).toEqual({ text: "word ".repeat(20).trimEnd(), cut: true })
  })
})
