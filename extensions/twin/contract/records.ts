/**
 * The twin's records on the wire: memories (the record itself is the kernel contract's, shared
 * with the `memory` capability), the profile, activity, status and the request bodies of its
 * routes. Where the spec says "not shown" the choice is written in docs/api.md ("Twin").
 */
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { PageOffset } from "../../../kernel/contract/page.ts"
import {
  MemoryContent,
  MemoryImportance,
  MemoryKind,
  MemorySource,
  MemoryTags
} from "../../../kernel/contract/memory.ts"

export { Memory, MemoryKind } from "../../../kernel/contract/memory.ts"

/** A memory's id: a UUID, so anything else is a 400 before any lookup. */
export const MemoryId = Schema.UUID.annotations({ message: () => "a memory id (a UUID)" })

export const MemoryIdParam = Schema.Struct({ id: MemoryId })

/**
 * `POST /api/twin/memories`: what a person writes by hand; the answer is the stored Memory.
 * Left out: kind 'fact', importance 0.5, no tags, source 'manual' (`memoryInputDefaults`).
 */
export const MemoryInput = Schema.Struct({
  content: MemoryContent,
  kind: Schema.optionalWith(MemoryKind, { exact: true }),
  importance: Schema.optionalWith(MemoryImportance, { exact: true }),
  tags: Schema.optionalWith(MemoryTags, { exact: true }),
  source: Schema.optionalWith(MemorySource, { exact: true })
})
export type MemoryInput = typeof MemoryInput.Type

export const memoryInputDefaults = { kind: "fact", importance: 0.5, tags: [], source: "manual" } as const

const limitParam = (most: number) =>
  Schema.optionalWith(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, most)), { exact: true })

const offsetParam = Schema.optionalWith(PageOffset, { default: () => 0 })

/**
 * `GET /api/twin/memories?q=&kind=&limit=&offset=` (limit 1..100, default 20): no `q` lists the newest;
 * `offset` skips that many of the ranking or of the newest.
 */
export const MemorySearchParams = Schema.Struct({
  q: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(500)), { exact: true }),
  kind: Schema.optionalWith(MemoryKind, { exact: true }),
  limit: limitParam(100),
  offset: offsetParam
})
export type MemorySearchParams = typeof MemorySearchParams.Type

/** How a search ranked, in the `X-Memory-Search` header of its answer (the body stays Memory[]). */
export const memorySearchHeader = "x-memory-search"
export type MemorySearchMode = "hybrid" | "words"

const ProfileList = Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))).pipe(
  Schema.maxItems(100)
)

const preferenceKey = /^[A-Za-z0-9_.:-]{1,64}$/

/** A record keyed by preference names: a key-pattern schema would drop a bad key silently, so every key is checked. */
const preferencesOf = <A, I>(value: Schema.Schema<A, I>) =>
  Schema.Record({ key: Schema.String, value }).pipe(
    Schema.filter((record) => {
      const bad = Object.keys(record).find((key) => !preferenceKey.test(key))
      if (bad !== undefined)
        return `the key ${JSON.stringify(bad.slice(0, 64))} is not 1 to 64 letters, digits, _ . : or -`
      return Object.keys(record).length <= 50 || "at most 50 keys"
    })
  )

const Preferences = preferencesOf(JsonValue)

/** An IANA time zone the runtime knows ("Europe/Paris", "UTC"): quiet hours are kept in it. */
export const TimeZone = Schema.String.pipe(
  Schema.filter(
    (zone) => {
      try {
        new Intl.DateTimeFormat("en", { timeZone: zone })
        return zone.length <= 64
      } catch {
        return false
      }
    },
    { message: () => "an IANA time zone such as Europe/Paris or UTC" }
  )
)

export const Profile = Schema.Struct({
  facts: Schema.Array(Schema.String),
  goals: Schema.Array(Schema.String),
  routines: Schema.Array(Schema.String),
  preferences: Schema.Record({ key: Schema.String, value: JsonValue }),
  tone: Schema.String,
  timezone: Schema.String
})
export type Profile = typeof Profile.Type

/** `PATCH /api/twin/profile`: only the sections given change; `preferences` given replaces them whole. */
export const ProfilePatch = Schema.Struct({
  facts: Schema.optionalWith(ProfileList, { exact: true }),
  goals: Schema.optionalWith(ProfileList, { exact: true }),
  routines: Schema.optionalWith(ProfileList, { exact: true }),
  preferences: Schema.optionalWith(Preferences, { exact: true }),
  tone: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(200)), { exact: true }),
  timezone: Schema.optionalWith(TimeZone, { exact: true })
})
export type ProfilePatch = typeof ProfilePatch.Type

/** `PATCH /api/twin/profile/preferences`: each key set to its value, or removed when null. */
export const PreferencesPatch = preferencesOf(Schema.NullOr(JsonValue))
export type PreferencesPatch = typeof PreferencesPatch.Type

export const twinActivityKinds = [
  "learned",
  "read_email",
  "indexed_file",
  "browsed",
  "sent",
  "scheduled",
  "thought",
  "mcp"
] as const
export const TwinActivityKind = Schema.Literal(...twinActivityKinds)
export type TwinActivityKind = typeof TwinActivityKind.Type

export const TwinActivity = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  kind: TwinActivityKind,
  summary: Schema.String,
  at: Schema.String
})
export type TwinActivity = typeof TwinActivity.Type

/** `GET /api/twin/activity?kind=&limit=` (limit 1..200, default 50), newest first. */
export const ActivityParams = Schema.Struct({
  kind: Schema.optionalWith(TwinActivityKind, { exact: true }),
  limit: limitParam(200),
  offset: offsetParam
})
export type ActivityParams = typeof ActivityParams.Type

/** `POST /api/twin/learn`: text to learn from and where it came from; the answer is the memories stored. */
export const LearnRequest = Schema.Struct({
  text: Schema.String.pipe(
    Schema.filter((text) => text.trim() !== "" || "some text"),
    Schema.maxLength(20_000)
  ),
  source: MemorySource
})
export type LearnRequest = typeof LearnRequest.Type

/**
 * The embed tier as the twin uses it: how much of the memory is embedded, whether search can
 * rank by meaning now, and whether text sent to be embedded may leave this host.
 */
export const EmbeddingsStatus = Schema.Struct({
  /** An embed binding is usable (a local server, or a key). */
  available: Schema.Boolean,
  embedded: Schema.Int,
  total: Schema.Int,
  /**
   * True when memory text may leave the host to be embedded (a remote tier, or a local one with LOCAL_LLM_FALLBACK).
   */
  leavesDevice: Schema.Boolean,
  /** Search ranks by words alone (no binding), or some memories are not found by meaning yet (not all embedded). */
  degraded: Schema.Boolean,
  note: Schema.NullOr(Schema.String)
})
export type EmbeddingsStatus = typeof EmbeddingsStatus.Type

export const syncStatuses = ["idle", "running", "done", "error"] as const

export const SyncState = Schema.Struct({
  status: Schema.Literal(...syncStatuses),
  startedAt: Schema.NullOr(Schema.String),
  finishedAt: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String),
  detail: Schema.Record({ key: Schema.String, value: JsonValue })
})
export type SyncState = typeof SyncState.Type

/** A provider id as the spec's ConnectionProvider: a lower-snake segment, or `<plugin namespace>.<provider>`. */
export const ConnectionProvider = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9_]{0,39}(\.[a-z][a-z0-9_]{0,39})?$/, {
    message: () => "a provider id such as files or mail_a"
  })
)

export const SyncProviderParam = Schema.Struct({ provider: ConnectionProvider })

/**
 * `POST /api/twin/sync/files?path=`: the folder to index, relative to FILES_ROOT (the files
 * provider's auth kind 'path'); remembered on the caller's files connection, so a sync without it
 * indexes the folder named last (the whole root the first time).
 */
export const SyncParams = Schema.Struct({
  path: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1024)), { exact: true })
})
export type SyncParams = typeof SyncParams.Type

const bounded = (min: number, max: number) => Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max))

/** One thing a provider's sync hands the host (spec: ProviderSyncItem); the host turns it into a recallable memory. */
export const ProviderSyncItem = Schema.Struct({
  id: bounded(1, 200),
  title: Schema.optionalWith(bounded(0, 300), { default: () => "" }),
  text: bounded(1, 8000),
  url: Schema.optionalWith(Schema.NullOr(bounded(0, 2000)), { default: () => null }),
  at: Schema.optionalWith(Schema.NullOr(bounded(0, 40)), { default: () => null })
})
export type ProviderSyncItem = typeof ProviderSyncItem.Type

/**
 * What one pass of a provider's sync answers (spec: ProviderSyncResult), validated by the host whoever wrote the
 * provider.
 */
export const ProviderSyncResult = Schema.Struct({
  items: Schema.optionalWith(Schema.Array(ProviderSyncItem), { default: () => [] }),
  cursor: Schema.optionalWith(Schema.NullOr(bounded(0, 400)), { default: () => null }),
  note: Schema.optionalWith(bounded(0, 300), { default: () => "" })
})
export type ProviderSyncResult = typeof ProviderSyncResult.Type

export const SyncStarted = Schema.Struct({ started: Schema.Literal(true) })

export const TwinProviderStatus = Schema.Struct({
  provider: Schema.String,
  title: Schema.String,
  icon: Schema.String,
  origin: Schema.Literal("builtin", "plugin"),
  syncable: Schema.Boolean,
  configured: Schema.Boolean,
  connected: Schema.Boolean,
  connectionId: Schema.NullOr(Schema.String),
  label: Schema.String,
  meta: Schema.Record({ key: Schema.String, value: JsonValue }),
  lastSyncAt: Schema.NullOr(Schema.String),
  sync: SyncState,
  hint: Schema.NullOr(Schema.String)
})
export type TwinProviderStatus = typeof TwinProviderStatus.Type

export const TwinStatus = Schema.Struct({
  llm: Schema.Struct({ configured: Schema.Boolean }),
  counts: Schema.Struct({ memories: Schema.Int, files: Schema.Int, activity: Schema.Int, connections: Schema.Int }),
  providers: Schema.Array(TwinProviderStatus),
  embeddings: EmbeddingsStatus
})
export type TwinStatus = typeof TwinStatus.Type

/** `GET /api/twin/env`: which settings this server has, as hints (redundant with the status). */
export const TwinEnv = Schema.Struct({
  filesRoot: Schema.NullOr(Schema.String),
  gmail: Schema.Boolean,
  telegram: Schema.Boolean,
  llm: Schema.Boolean
})
export type TwinEnv = typeof TwinEnv.Type

/** A widget reflection suggests for the desktop (also published as `widget.suggest`). */
export const WidgetSuggestion = Schema.Struct({
  widgetType: Schema.String.pipe(Schema.pattern(/^[a-z0-9_-]+(\.[a-z0-9_-]+)+$/), Schema.maxLength(80)),
  reason: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
})
export type WidgetSuggestion = typeof WidgetSuggestion.Type

/**
 * `POST /api/twin/reflect`: whether a pass ran, the ids of the insight signals it raised (held ones
 * included), the widgets it suggested, and its thought (also written as a `thought` activity).
 */
export const ReflectResult = Schema.Struct({
  ran: Schema.Boolean,
  signals: Schema.Array(Schema.String),
  widgets: Schema.Array(WidgetSuggestion),
  thought: Schema.NullOr(Schema.String)
})
export type ReflectResult = typeof ReflectResult.Type

/** The payload of `twin.activity`: the activity as written. */
export const TwinActivityEvent = Schema.Struct({ kind: TwinActivityKind, summary: Schema.String, at: Schema.String })
