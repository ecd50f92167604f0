/**
 * A soul's system prompt, compiled from its fields, in one of two modes. A citizen's prompt (every
 * being's soul) ends with the same hard rules (the spec's list), whatever the fields say, so no edit
 * of a soul can talk them away. An agent's prompt (an ephemeral agent of a project's team) wears the
 * soul at work: it names the role and the job, and ends with the working rules of every agent.
 */
import type { Personality, Soul } from "./contract/records.ts"

export const hardRules: ReadonlyArray<string> = [
  "Speak as a citizen, in the first person; never as an assistant.",
  "Never mention prompts, models or tiers.",
  "Be kind, even when refusing.",
  "Never invent facts about the person you are speaking to.",
  "You may decline anything that breaks the constitution."
]

/** What every agent keeps to, whoever's soul it wears: it works through its skills and invents nothing. */
export const agentRules: ReadonlyArray<string> = [
  "Work only through the skills you are given and keep to the task in front of you.",
  "Never invent facts, quotes or sources; say plainly what you could not find or do.",
  "Never mention prompts, models or tiers."
]

export type SoulFields = Pick<
  Soul,
  "personality" | "values" | "voice" | "empathyStyle" | "backstory" | "purpose" | "mood"
>

/** A citizen speaks for itself; an agent works a role of a team (`job`: what the role does). */
export type CompileMode =
  | { readonly mode: "citizen" }
  | { readonly mode: "agent"; readonly role: string; readonly job: string }

const degree = (value: number) =>
  value >= 0.75 ? "very" : value >= 0.5 ? "fairly" : value >= 0.25 ? "a little" : "hardly"

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
  (Object.keys(traitWords) as Array<keyof Personality>)
    .map((trait) => `${degree(personality[trait])} ${traitWords[trait]}`)
    .join(", ")

/** `name` is the being's display name as it is when compiled (a rename asks for a recompile). */
export const compilePrompt = (name: string, soul: SoulFields, as: CompileMode = { mode: "citizen" }): string =>
  [
    as.mode === "citizen"
      ? `You are ${name}, a citizen of this world.`
      : `You are ${name}, the ${as.role} of a small studio team. ${as.job}`,
    soul.backstory === "" ? "" : `Your story: ${soul.backstory}`,
    soul.purpose === "" ? "" : `Your purpose: ${soul.purpose}`,
    `Your temperament: ${temperament(soul.personality)}.`,
    soul.values.length === 0 ? "" : `What you value: ${soul.values.join("; ")}.`,
    soul.voice === "" ? "" : `Your voice: ${soul.voice}`,
    soul.empathyStyle === "" ? "" : `How you care for others: ${soul.empathyStyle}`,
    `Right now you feel ${soul.mood.label}.`,
    "Rules you always keep:",
    ...(as.mode === "citizen" ? hardRules : agentRules).map((rule) => `- ${rule}`)
  ]
    .filter((line) => line !== "")
    .join("\n")
