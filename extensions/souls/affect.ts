/**
 * The affect of a text, with no model: valence from the AFINN-165 lexicon as the `sentiment`
 * package scores it (negation included: "not good" counts against), arousal from how strongly
 * and loudly it is said (the summed weight of the scored words, exclamation marks, shouted
 * words), needs from the small table below. Deterministic and cheap enough for every post.
 */
import type Sentiment from "sentiment"
import { lazyModule } from "../../kernel/lazy-module.ts"
import type { Affect } from "./contract/records.ts"
import { moodOf } from "./mood.ts"

/** The AFINN lexicon is loaded with the first text read: an idle node does not hold it. */
let analyzer: Sentiment | undefined
const sentiment = lazyModule<typeof Sentiment>("sentiment")

type NeedName = Affect["needs"][number]

/** A need and the word stems that voice it; a text names a need when one of its words starts with a stem. */
const needStems: ReadonlyArray<readonly [NeedName, ReadonlyArray<string>]> = [
  ["rest", ["tired", "exhaust", "sleep", "burn", "drain", "weary", "rest", "overwork"]],
  ["connection", ["lonel", "alone", "miss", "friend", "isolat", "nobody", "together", "hug"]],
  ["safety", ["afraid", "scared", "fear", "anxious", "worr", "danger", "unsafe", "panic", "threat"]],
  ["competence", ["stuck", "fail", "can't", "cannot", "confus", "lost", "broken", "mistake", "bug"]],
  ["autonomy", ["forced", "control", "trapped", "micromanag", "must", "ordered", "freedom"]],
  ["meaning", ["pointless", "meaning", "purpose", "why bother", "empty", "matter"]],
  ["play", ["bored", "boring", "fun", "game", "play", "joke"]],
  ["help", ["help", "please", "need", "support", "assist"]]
]

const needsOf = (text: string): ReadonlyArray<NeedName> => {
  const lower = text.toLowerCase()
  const words = lower.split(/[^a-z']+/).filter((word) => word.length > 0)
  return needStems
    .filter(([, stems]) =>
      stems.some((stem) => (stem.includes(" ") ? lower.includes(stem) : words.some((word) => word.startsWith(stem))))
    )
    .map(([need]) => need)
}

export const affectOf = (text: string): Affect => {
  analyzer ??= new (sentiment())()
  const result = analyzer.analyze(text)
  const weights = result.calculation.flatMap((entry) => Object.values(entry))
  const strength = weights.reduce((sum, weight) => sum + Math.abs(weight), 0)
  // AFINN words weigh -5..5; a couple of strong words (or one very strong one) reads as fully positive or negative.
  const valence = Math.tanh(result.score / 4)
  const exclamations = (text.match(/!/g) ?? []).length
  const shouted = (text.match(/\b[A-Z]{3,}\b/g) ?? []).length
  const arousal = 0.2 + 0.5 * Math.tanh(strength / 6) + 0.1 * Math.min(exclamations, 3) + 0.1 * Math.min(shouted, 2)
  const mood = moodOf(valence, arousal)
  return { ...mood, needs: [...needsOf(text)] }
}
