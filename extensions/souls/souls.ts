/**
 * Souls: every being has one. A being without a soul row is given one generated from its own id
 * the first time it is read, so beings raised before souls existed (and every new one) have one.
 * The prompt is compiled from the fields on every write. The mood relaxes toward the soul's resting
 * mood with time (Effect's Clock), so a read answers the mood as it is now; drift moves it toward
 * an event's affect first. Who may write is the caller's business (host/beings); this service
 * takes the being it is told, with the name its prompt speaks as.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { nowMillis } from "../../kernel/time.ts"
import { affectOf } from "./affect.ts"
import { compilePrompt, type SoulFields } from "./compile.ts"
import type { DriftRequest, GenerateRequest, Soul, SoulInput } from "./contract/records.ts"
import { generateSoul } from "./generate.ts"
import { moved, relaxed, restingMood } from "./mood.ts"
import { SoulsRepository, type StoredSoul } from "./repositories/souls-repository.ts"
import type { SoulOwner } from "./contract/soul-service.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The being a soul belongs to, as the prompt names it (declared in the contract, where other features name it). */
export type { SoulOwner } from "./contract/soul-service.ts"

const newId = () => randomBytes(12).toString("base64url")
const MINUTE = 60_000

/** The soul as the wire carries it, its prompt kept or stripped. */
export const soulFor = (stored: StoredSoul, withPrompt: boolean): Soul => {
  const { moodAt: _moodAt, systemPrompt, ...soul } = stored
  return withPrompt ? { ...soul, systemPrompt } : soul
}

export class Souls extends Effect.Service<Souls>()("souls/Souls", {
  dependencies: [SoulsRepository.Default],
  effect: Effect.gen(function* () {
    const repository = yield* SoulsRepository

    /** The stored soul with its mood relaxed to now. */
    const asOfNow = (stored: StoredSoul) =>
      Effect.map(
        nowMillis,
        (now): StoredSoul => ({
          ...stored,
          mood: relaxed(stored.mood, restingMood(stored.personality), (now - Date.parse(stored.moodAt)) / MINUTE)
        })
      )

    /** Compiles and writes the fields as the being's soul (keeping its id), answering what was written. */
    const write = (owner: SoulOwner, fields: SoulFields, previous: Option.Option<StoredSoul>) =>
      Effect.gen(function* () {
        const now = new Date(yield* nowMillis).toISOString()
        const soul: StoredSoul = {
          ...fields,
          id: Option.match(previous, { onNone: newId, onSome: (found) => found.id }),
          beingId: owner.id,
          moodAt: now,
          systemPrompt: compilePrompt(owner.displayName, fields),
          updatedAt: now
        }
        yield* repository.save(soul)
        return soul
      })

    const fieldsOf = (soul: StoredSoul): SoulFields => ({
      personality: soul.personality,
      values: soul.values,
      voice: soul.voice,
      empathyStyle: soul.empathyStyle,
      backstory: soul.backstory,
      purpose: soul.purpose,
      mood: soul.mood
    })

    /** The being's soul now; one generated from its id if it had none. */
    const current = (owner: SoulOwner) =>
      Effect.gen(function* () {
        const found = yield* repository.findByBeing(owner.id)
        if (Option.isSome(found)) return yield* asOfNow(found.value)
        return yield* write(owner, generateSoul({ seed: owner.id }).fields, Option.none())
      }).pipe(spanNamed("souls.current"))

    const replace = (owner: SoulOwner, input: SoulInput) =>
      Effect.gen(function* () {
        const before = yield* current(owner)
        return yield* write(owner, { ...input, mood: input.mood ?? before.mood }, Option.some(before))
      }).pipe(spanNamed("souls.replace"))

    const recompile = (owner: SoulOwner) =>
      Effect.gen(function* () {
        const before = yield* current(owner)
        return yield* write(owner, fieldsOf(before), Option.some(before))
      }).pipe(spanNamed("souls.recompile"))

    /** A new soul from an archetype; the seed defaults to the being's id, so asking twice gives one soul. */
    const generate = (owner: SoulOwner, request: GenerateRequest) =>
      Effect.gen(function* () {
        const before = yield* current(owner)
        const generated = generateSoul({
          seed: request.seed ?? owner.id,
          ...(request.archetype === undefined ? {} : { archetype: request.archetype }),
          ...(request.role === undefined ? {} : { role: request.role })
        })
        const soul = yield* write(owner, generated.fields, Option.some(before))
        return { soul, archetype: generated.archetype }
      }).pipe(spanNamed("souls.generate"))

    /** The mood moved toward the event's affect, then relaxed for the minutes since it happened. */
    const drift = (owner: SoulOwner, request: DriftRequest) =>
      Effect.gen(function* () {
        const before = yield* current(owner)
        const mood = relaxed(
          moved(before.mood, affectOf(request.event)),
          restingMood(before.personality),
          request.minutes ?? 0
        )
        return yield* write(owner, { ...fieldsOf(before), mood }, Option.some(before))
      }).pipe(spanNamed("souls.drift"))

    /** A citizen's soul from its seed: the written fields replace the old, the mood it has now stays. */
    const seedCitizen = (owner: SoulOwner, fields: Omit<SoulFields, "mood">) =>
      Effect.gen(function* () {
        const found = yield* repository.findByBeing(owner.id)
        const mood = Option.match(found, { onNone: () => restingMood(fields.personality), onSome: (soul) => soul.mood })
        return yield* write(owner, { ...fields, mood }, found)
      }).pipe(spanNamed("souls.seedCitizen"))

    return { current, replace, recompile, generate, drift, seedCitizen }
  })
}) {}
