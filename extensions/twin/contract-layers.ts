/**
 * The twin's contract tags (contract/memories.ts, profiles.ts, activity-log.ts) over its services,
 * so other features call the twin through its contract and the node builds each service once.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ActivityLog } from "./contract/activity-log.ts"
import { TwinMemories } from "./contract/memories.ts"
import { memoryInputDefaults } from "./contract/records.ts"
import { TwinProfiles } from "./contract/profiles.ts"
import { Activity } from "./activity.ts"
import { Memories } from "./memories.ts"
import { Profiles } from "./profiles.ts"

export const TwinMemoriesLive = Layer.effect(
  TwinMemories,
  Effect.map(Memories, (memories) => ({
    search: memories.search,
    searchWords: memories.searchWords,
    store: (beingId, input) =>
      Effect.map(
        memories.store(beingId, { ...memoryInputDefaults, ...input }, { skipNearDuplicates: false }),
        (stored) => stored.memory!
      ),
    embeddings: memories.embeddings
  }))
)

export const TwinProfilesLive = Layer.effect(
  TwinProfiles,
  Effect.map(Profiles, (profiles) => ({ get: profiles.get }))
)

export const ActivityLogLive = Layer.effect(
  ActivityLog,
  Effect.map(Activity, (activity) => ({ record: activity.record }))
)
