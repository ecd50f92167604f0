/**
 * The twin's activity log: every writer (learning, file indexing, provider sync, the chat bridge,
 * scheduling, reflection) records through here, so each entry is also published to its being as
 * `twin.activity`.
 */
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"
import { nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import type { ActivityParams, TwinActivity, TwinActivityKind } from "./contract/records.ts"
import { ActivityRepository } from "./repositories/activity-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

export class Activity extends Effect.Service<Activity>()("twin/Activity", {
  dependencies: [ActivityRepository.Default],
  effect: Effect.gen(function* () {
    const repository = yield* ActivityRepository
    const bus = yield* EventBus

    const record = (beingId: string, kind: TwinActivityKind, summary: string) =>
      Effect.gen(function* () {
        const activity: TwinActivity = {
          id: randomUUID(),
          beingId,
          kind,
          summary: summary.slice(0, 500),
          at: yield* nowIso
        }
        yield* repository.insert(activity)
        yield* bus.publish(
          { kind: "being", beingId },
          { type: "twin.activity", kind, summary: activity.summary, at: activity.at }
        )
        return activity
      }).pipe(spanNamed("twin.recordActivity"))

    const list = (beingId: string, { kind, limit = 50, offset = 0 }: Partial<ActivityParams>) =>
      repository.list({ beingId, kind: kind ?? null, limit, offset }).pipe(spanNamed("twin.listActivity"))

    return { record, list, count: repository.count } as const
  })
}) {}
