/**
 * Moods as numbers: the label read from valence and arousal, a soul's resting mood from its
 * personality, and the two movements of drift — toward an event's affect, and back to rest with
 * time (exponential, half of the distance every MOOD_HALF_LIFE_MINUTES).
 */
import type { Mood, Personality } from "./contract/records.ts"

export const MOOD_HALF_LIFE_MINUTES = 120

/** How far one event moves the mood toward its own affect (the rest is the mood it met). */
export const EVENT_WEIGHT = 0.6

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value))
const round = (value: number) => Math.round(value * 1000) / 1000

/** The four quadrants of valence and arousal, with a calm middle. */
export const moodLabel = (valence: number, arousal: number): string => {
  if (valence >= 0.2) return arousal >= 0.5 ? "joyful" : "content"
  if (valence <= -0.2) return arousal >= 0.5 ? "tense" : "low"
  return arousal >= 0.6 ? "alert" : "calm"
}

export const moodOf = (valence: number, arousal: number): Mood => {
  const v = round(clamp(valence, -1, 1))
  const a = round(clamp(arousal, 0, 1))
  return { valence: v, arousal: a, label: moodLabel(v, a) }
}

/** A soul at rest: warm, agreeable souls rest happier, anxious ones lower; extraverts rest livelier. */
export const restingMood = (personality: Personality): Mood =>
  moodOf(
    (0.5 * (personality.warmth + personality.agreeableness)) / 2 + 0.2 - 0.4 * personality.neuroticism,
    0.2 + 0.4 * personality.extraversion + 0.2 * personality.neuroticism
  )

/** The mood after `minutes` of relaxing toward rest. */
export const relaxed = (mood: Mood, rest: Mood, minutes: number): Mood => {
  if (minutes <= 0) return mood
  const kept = 0.5 ** (minutes / MOOD_HALF_LIFE_MINUTES)
  return moodOf(
    rest.valence + (mood.valence - rest.valence) * kept,
    rest.arousal + (mood.arousal - rest.arousal) * kept
  )
}

/** The mood moved toward an event's affect. */
export const moved = (mood: Mood, toward: { readonly valence: number; readonly arousal: number }): Mood =>
  moodOf(
    mood.valence + (toward.valence - mood.valence) * EVENT_WEIGHT,
    mood.arousal + (toward.arousal - mood.arousal) * EVENT_WEIGHT
  )

/** The mean of some moods (the square's mood from its recent posts); calm rest when there are none. */
export const meanMood = (moods: ReadonlyArray<{ readonly valence: number; readonly arousal: number }>): Mood =>
  moods.length === 0
    ? moodOf(0, 0.3)
    : moodOf(
        moods.reduce((sum, mood) => sum + mood.valence, 0) / moods.length,
        moods.reduce((sum, mood) => sum + mood.arousal, 0) / moods.length
      )
