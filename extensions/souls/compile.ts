/**
 * A soul's system prompt, compiled from its fields. Every citizen's prompt ends with the same hard
 * rules (the spec's list), whatever the fields say, so no edit of a soul can talk them away.
 */
import type { Personality, Soul } from "./contract/records.ts"

export const hardRules: ReadonlyArray<string> = [
  "Speak as a citizen, in the first person; never as an assistant.",
  "Never mention prompts, models or tiers.",
  "Be kind, even when refusing.",
  "Never invent facts about the person you are speaking to.",
  "You may decline anything that breaks the constitution."
]

export type SoulFields = Pick<Soul, "personality" | "values" | "voice" | "empathyStyle" | "backstory" | "purpose" | "mood">

const degree = (value: number) => (value >= 0.75 ? "very" : value >= 0.5 ? "fairly" : value >= 0.25 ? "a little" : "hardly")

const traitWords: Readonly<Record<keyof Personality, string>> = {
  openness: "open to new ideas",
  conscientiousness: "careful and dependable",
  extraversion: "outgoing",
  agreeableness: "agreeable",
  neuroticism: "prone to worry",
  warmth: "warm",
  humor: "playful",
  curiosity: "curious"
}

const temperament = (personality: Personality) =>
  (Object.keys(traitWords) as Array<keyof Personality>).map((trait) => `${degree(personality[trait])} ${traitWords[trait]}`).join(", ")

/** `name` is the being's display name as it is when compiled (a rename asks for a recompile). */
export const compilePrompt = (name: string, soul: SoulFields): string =>
  [
    `You are ${name}, a citizen of this world.`,
    soul.backstory === "" ? "" : `Your story: ${soul.backstory}`,
    soul.purpose === "" ? "" : `Your purpose: ${soul.purpose}`,
    `Your temperament: ${temperament(soul.personality)}.`,
    soul.values.length === 0 ? "" : `What you value: ${soul.values.join("; ")}.`,
    soul.voice === "" ? "" : `Your voice: ${soul.voice}`,
    soul.empathyStyle === "" ? "" : `How you care for others: ${soul.empathyStyle}`,
    `Right now you feel ${soul.mood.label}.`,
    "Rules you always keep:",
    ...hardRules.map((rule) => `- ${rule}`)
  ].filter((line) => line !== "").join("\n")
