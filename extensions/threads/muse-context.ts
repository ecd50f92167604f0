/**
 * The Muse's port to the features it draws on: the twin (the chosen Muse name is the profile's
 * `museName` preference; the profile's sections and the memories recalled by the newest
 * message), the souls (the being's soul compiled under the Muse's name) and the presence rows
 * (whether the being is online on any process, for its presence while the Muse replies).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SoulService } from "../souls/contract/soul-service.ts"
import { DEFAULT_MUSE_NAME, MAX_MUSE_NAME } from "./contract/records.ts"
import { MuseContext } from "./ports.ts"
import { TwinMemories } from "../twin/contract/memories.ts"
import { TwinProfiles } from "../twin/contract/profiles.ts"
import { Presence } from "../../actors/being/contract/presence.ts"

/** Memories the Muse is reminded of in one reply. */
const RECALLED = 5

const nameOf = (preference: unknown) => {
  const name = typeof preference === "string" ? preference.trim().slice(0, MAX_MUSE_NAME) : ""
  return name === "" ? DEFAULT_MUSE_NAME : name
}

export const MuseContextLive = Layer.effect(
  MuseContext,
  Effect.gen(function* () {
    const profiles = yield* TwinProfiles
    const memories = yield* TwinMemories
    const souls = yield* SoulService
    const presence = yield* Presence
    return {
      museName: (beingId) => Effect.map(profiles.get(beingId), (profile) => nameOf(profile.preferences.museName)),
      persona: (being, museName) => souls.promptOf(being, museName),
      recall: (beingId, text) =>
        text.trim() === ""
          ? Effect.succeed([])
          : memories.search(beingId, { q: text, limit: RECALLED }).pipe(
              Effect.map((found) => found.memories.map((memory) => memory.content)),
              Effect.catchAllCause((cause) =>
                Effect.as(Effect.logWarning("The Muse recalled nothing: the memory search failed", cause), [])
              )
            ),
      profile: (beingId) =>
        Effect.map(profiles.get(beingId), (profile) => ({
          museName: nameOf(profile.preferences.museName),
          lines: [
            ...profile.facts,
            ...profile.goals.map((goal) => `Goal: ${goal}`),
            ...profile.routines.map((routine) => `Routine: ${routine}`),
            ...(profile.tone === "" ? [] : [`Likes to be spoken to: ${profile.tone}`])
          ]
        })),
      online: (beingId) => presence.isOnline(beingId).pipe(Effect.orElseSucceed(() => false))
    }
  })
)
