/**
 * A soul generated from an archetype (seeds/archetypes.ts), deterministic for a seed: every pick
 * comes from Effect's seeded Random, so one seed gives one soul and no model is called. Without an
 * archetype the seed picks one too.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { archetypeNamed, archetypes } from "../../seeds/archetypes.ts"
import type { ArchetypeName, Personality } from "./contract/records.ts"
import type { SoulFields } from "./compile.ts"
import { restingMood } from "./mood.ts"

export interface Generated {
  readonly archetype: ArchetypeName
  readonly fields: SoulFields
}

export const generateSoul = (options: {
  readonly seed: string
  readonly archetype?: ArchetypeName
  readonly role?: string
}): Generated => {
  const pick = Effect.gen(function* () {
    const random = Random.make(options.seed)
    const index = (length: number) => random.nextIntBetween(0, length)
    const archetype =
      options.archetype === undefined ? archetypes[yield* index(archetypes.length)]! : archetypeNamed(options.archetype)
    const role = options.role ?? "citizen"
    const personality = {} as Record<keyof Personality, number>
    for (const trait of Object.keys(archetype.traits) as Array<keyof Personality>) {
      const [low, high] = archetype.traits[trait]
      personality[trait] = Math.round((low + (high - low) * (yield* random.next)) * 100) / 100
    }
    // Three values, no repeats: a shuffle's first three.
    const values = Chunk.toReadonlyArray(yield* random.shuffle(archetype.values)).slice(0, 3)
    const of = function* (pool: ReadonlyArray<string>) {
      return pool[yield* index(pool.length)]!.replaceAll("{role}", role)
    }
    const fields: SoulFields = {
      personality,
      values: [...values],
      voice: yield* of(archetype.voices),
      empathyStyle: yield* of(archetype.empathyStyles),
      backstory: yield* of(archetype.backstories),
      purpose: yield* of(archetype.purposes),
      mood: restingMood(personality)
    }
    return { archetype: archetype.name, fields }
  })
  // A pure draw from a seeded Random, no I/O: its callers take the soul as a plain value.
  return Effect.runSync(pick)
}
