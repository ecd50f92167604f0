/**
 * The twin as the node lists it: its services with their ports bound (the model bindings, the
 * desktop for insights, the owner's folder for the files provider, the plugins' providers for their
 * syncs; mail_a's, bound by comms to the twin's RemoteSyncs, comes from the node) and the Models they call, plus the
 * embedding backfill and the reflection
 * rounds and the learning loop running in the node's scope.
 */
import * as Layer from "effect/Layer"
import { Activity } from "./activity.ts"
import { ActivityLogLive, TwinMemoriesLive, TwinProfilesLive } from "./contract-layers.ts"
import { MemoryBackfill } from "./backfill.ts"
import { Memories } from "./memories.ts"
import { Learning } from "./learning.ts"
import { LearningLoop } from "./learning-loop.ts"
import { LearningQueue } from "./learning-queue.ts"
import { Profiles } from "./profiles.ts"
import { Reflections } from "./reflection.ts"
import { TwinStatusService } from "./status.ts"
import { TwinSync } from "./sync.ts"
import { TwinWebhooks } from "./webhooks.ts"
import { SyncCadence } from "./cadence.ts"
import { TwinBindingsLive } from "./bindings.ts"
import { TwinFoldersLive } from "./folders.ts"
import { InsightSignalsLive } from "./insight-signals.ts"
import { ChatBotLive } from "./chat-bot.ts"
import { NodeValuesLive } from "./node-values.ts"
import { PluginSyncsLive } from "./plugin-syncs-layer.ts"
import { FileSummariesLive } from "./file-summaries.ts"
import { MemoryEvidenceLive } from "./memory-evidence.ts"
import { EventTimeZoneLive, ProfileTimeZoneLive } from "./profile-time-zone.ts"
import { ThreadLearningLive } from "./thread-learning.ts"

/** The twin's services, and the contract tags other features call it through. */
export const twinFeature = Layer.mergeAll(
  Layer.mergeAll(TwinMemoriesLive, TwinProfilesLive, ActivityLogLive).pipe(
    Layer.provideMerge(Layer.mergeAll(Memories.Default, Profiles.Default, Activity.Default))
  ),
  MemoryBackfill.Default,
  Learning.Default,
  LearningQueue.Default,
  LearningLoop.Default,
  TwinStatusService.Default,
  TwinSync.Default,
  TwinWebhooks.Default,
  SyncCadence.Default,
  Reflections.Default
).pipe(
  Layer.provide(
    Layer.mergeAll(TwinBindingsLive, InsightSignalsLive, TwinFoldersLive, ChatBotLive, NodeValuesLive, PluginSyncsLive)
  )
)

/**
 * What the twin binds for other features (the threads' learning, the calendar's and the being actor's time zone,
 * Hush's evidence, the files' summaries), over the database alone. Each is read as an option or as a reference with a
 * default: a reader above them gets the twin's, one below silently goes without, so the node lists them under all.
 */
export const twinPorts = Layer.mergeAll(
  ThreadLearningLive,
  EventTimeZoneLive,
  ProfileTimeZoneLive,
  MemoryEvidenceLive,
  FileSummariesLive
)
