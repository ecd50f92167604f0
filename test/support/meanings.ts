/**
 * Embeddings by meaning for the scripted model server: each group of words is one meaning (one
 * axis), and a text's vector points along every meaning one of its words belongs to. So "Ada's
 * golden retriever" and "dog" embed alike while sharing no word. A text of no listed meaning
 * points along one of 64 further axes picked by a hash of its text, so it is unrelated to every
 * meaning and (but for a 1-in-64 clash) to other such texts.
 *
 *   server.handle("embeddings", embedByMeaning([["dog", "retriever", "puppy"], ["tea", "chai"]]))
 */
import type { Handler, ReceivedRequest } from "./openai-server.ts"

const inputsOf = (request: ReceivedRequest): string[] => {
  const input = request.body.input
  return (Array.isArray(input) ? input : [input]).map((item) => (typeof item === "string" ? item : JSON.stringify(item)))
}

const otherAxes = 64

/** FNV-1a: a stable hash, so a text embeds the same in every run. */
const hashOf = (text: string) => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0
  return hash
}

export const meaningVector = (meanings: ReadonlyArray<ReadonlyArray<string>>, text: string): number[] => {
  const words = new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
  const vector: Array<number> = meanings.map((group) => (group.some((word) => words.has(word.toLowerCase())) ? 1 : 0))
  const unrelated = new Array<number>(otherAxes).fill(0)
  if (vector.every((value) => value === 0)) unrelated[hashOf(text) % otherAxes] = 1
  vector.push(...unrelated)
  const norm = Math.hypot(...vector)
  return vector.map((value) => value / norm)
}

export const embedByMeaning = (meanings: ReadonlyArray<ReadonlyArray<string>>): Handler<"embeddings"> => (request) => ({
  vectors: inputsOf(request).map((text) => meaningVector(meanings, text))
})
