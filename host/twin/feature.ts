/**
 * The twin as the node lists it: its services with their ports bound (the model bindings, the
 * desktop for insights, the owner's folder for the files provider, mail_a's mailbox for its sync) and the Models they call, plus the embedding backfill and the reflection
 * rounds and the learning loop running in the node's scope.
 */
import * as Layer from "effect/Layer"
import { Activity } from "../../extensions/twin/activity.ts"
import { MemoryBackfill } from "../../extensions/twin/backfill.ts"
import { Memories } from "../../extensions/twin/memories.ts"
import { Learning } from "../../extensions/twin/learning.ts"
import { LearningLoop } from "../../extensions/twin/learning-loop.ts"
import { LearningQueue } from "../../extensions/twin/learning-queue.ts"
import { Profiles } from "../../extensions/twin/profiles.ts"
import { Reflections } from "../../extensions/twin/reflection.ts"
import { TwinStatusService } from "../../extensions/twin/status.ts"
import { TwinSync } from "../../extensions/twin/sync.ts"
import { TwinWebhooks } from "../../extensions/twin/webhooks.ts"
import { SyncCadence } from "../../extensions/twin/cadence.ts"
import { ModelsLive } from "../llm/models.ts"
import { TwinBindingsLive } from "./bindings.ts"
import { TwinFoldersLive } from "./folders.ts"
import { InsightSignalsLive } from "./insight-signals.ts"
import { ChatBotLive } from "./chat-bot.ts"
import { NodeValuesLive } from "./node-values.ts"
import { MailAAccountsLive } from "../integrations/mail-a/accounts.ts"
import { MailASyncLive } from "../integrations/mail-a/sync-source.ts"

export const twinFeature = Layer.mergeAll(
  Memories.Default,
  MemoryBackfill.Default,
  Profiles.Default,
  Activity.Default,
  Learning.Default,
  LearningQueue.Default,
  LearningLoop.Default,
  TwinStatusService.Default,
  TwinSync.Default,
  TwinWebhooks.Default,
  SyncCadence.Default,
  Reflections.Default
).pipe(Layer.provide(Layer.mergeAll(TwinBindingsLive, ModelsLive, InsightSignalsLive, TwinFoldersLive, ChatBotLive, NodeValuesLive, MailASyncLive.pipe(Layer.provide(MailAAccountsLive)))))
