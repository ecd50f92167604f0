/**
 * Embeddings by meaning for the scripted model server: each group of words is one meaning (one
 * axis), and a text's vector points along every meaning one of its words belongs to. So "Ada's
 * golden retriever" and "dog" embed alike while sharing no word. A word of no listed meaning
 * points along one of 512 further axes picked by its hash, so texts that share no word and no
 * meaning are unrelated (but for a rare clash of two words' hashes, the same in every run).
 *
 *   server.handle("embeddings", embedByMeaning([["dog", "retriever", "puppy"], ["tea", "chai"]]))
 */
import type { Handler, ReceivedRequest } from "./openai-replies.ts"

const inputsOf = (request: ReceivedRequest): string[] => {
  const input = request.body.input
  return (Array.isArray(input) ? input : [input]).map((item) =>
    typeof item === "string" ? item : JSON.stringify(item)
  )
}

const otherAxes = 512
const meaningWeight = 3

/** FNV-1a: a stable hash, so a text embeds the same in every run. */
const hashOf = (text: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

export const meaningVector = (meanings: ReadonlyArray<ReadonlyArray<string>>, text: string): number[] => {
  const words = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
  const meaningOf = (word: string) =>
    meanings.findIndex((group) => group.some((member) => member.toLowerCase() === word))
  const vector = new Array<number>(meanings.length + otherAxes).fill(0)
  for (const word of words) {
    const meaning = meaningOf(word)
    // A meaning outweighs incidental words, as a topic does in a real embedding.
    if (meaning >= 0) vector[meaning] = meaningWeight
    else vector[meanings.length + (hashOf(word) % otherAxes)] = 1
  }
  const norm = Math.hypot(...vector) || 1
  return vector.map((value) => value / norm)
}

export const embedByMeaning =
  (meanings: ReadonlyArray<ReadonlyArray<string>>): Handler<"embeddings"> =>
  (request) => ({
    vectors: inputsOf(request).map((text) => meaningVector(meanings, text))
  })
