/**
 * The twin's activity log as other features write to it (a skill that sent or read mail, a
 * scheduled run): each entry is also published to its being as `twin.activity`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { TwinActivity, TwinActivityKind } from "./records.ts"

export interface ActivityLogShape {
  readonly record: (beingId: string, kind: TwinActivityKind, summary: string) => Effect.Effect<TwinActivity>
}

export class ActivityLog extends Context.Tag("twin/ActivityLog")<ActivityLog, ActivityLogShape>() {}
