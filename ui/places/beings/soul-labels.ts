/** The words the soul's pages use for its traits and its mood. */
import type { Mood, Personality } from "../../../extensions/souls/contract/records.ts"

export const traitNames: ReadonlyArray<readonly [keyof Personality, string]> = [
  ["openness", "Openness"],
  ["conscientiousness", "Conscientiousness"],
  ["extraversion", "Extraversion"],
  ["agreeableness", "Agreeableness"],
  ["neuroticism", "Neuroticism"],
  ["warmth", "Warmth"],
  ["humor", "Humour"],
  ["curiosity", "Curiosity"]
]

const signed = (value: number) => `${value > 0 ? "+" : ""}${value.toFixed(2)}`

/** "content (valence +0.42, arousal 0.31)" */
export const moodWords = (mood: Mood): string =>
  `${mood.label} (valence ${signed(mood.valence)}, arousal ${mood.arousal.toFixed(2)})`
