/**
 * The sessions signed-in requests resolved, kept in this process so a request needs no SQL
 * statement (one `@effect/sql` statement measured 90–150 µs of CPU under load, more than the
 * rest of GET /api/auth/me: docs/benchmarks.md, "Issue 9").
 *
 * Exact, not a time-to-live: an entry is dropped when its session is deleted (every deletion
 * in extensions/accounts/sessions.ts announces the ids) and when its being's row is written
 * (contract/being-changes.ts, which every writer of `beings` calls); its expiry is checked
 * against the Clock on every read. A lookup that raced a change is not kept (the generation).
 * With several processes on one PostgreSQL, both kinds of change also reach the other processes'
 * caches through host/broadcast (docs/decisions.md, "Events across processes").
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Broadcast } from "../../kernel/broadcast.ts"
import { BeingChanges } from "./contract/being-changes.ts"
import type { SessionShape } from "./contract/session.ts"

/** Sessions kept at most; the least recently used goes first. ~1 KB each. */
export const SESSION_CACHE_SIZE = 10_000

interface Entry {
  readonly session: SessionShape
  readonly expiresAtMs: number
}

export class SessionCache extends Effect.Service<SessionCache>()("auth/SessionCache", {
  sync: () => {
    // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
    const byDigest = new Map<string, Entry>()
    let generation = 0

    /** The live session kept for this token digest, if any. */
    const get = (tokenHash: string, nowMs: number): SessionShape | undefined => {
      const entry = byDigest.get(tokenHash)
      if (entry === undefined) return undefined
      byDigest.delete(tokenHash)
      if (entry.expiresAtMs <= nowMs) return undefined
      byDigest.set(tokenHash, entry)
      return entry.session
    }

    /** Keeps a session read from the database, unless something changed since `readAt` (a generation). */
    const keep = (readAt: number, tokenHash: string, session: SessionShape, expiresAtMs: number) => {
      if (readAt !== generation) return
      byDigest.set(tokenHash, { session, expiresAtMs })
      if (byDigest.size > SESSION_CACHE_SIZE) byDigest.delete(byDigest.keys().next().value!)
    }

    const forgetWhere = (drop: (session: SessionShape) => boolean) => {
      generation += 1
      for (const [tokenHash, entry] of byDigest) if (drop(entry.session)) byDigest.delete(tokenHash)
    }

    return {
      get,
      keep,
      /** The generation to hand back to `keep` with what is read now. */
      generation: () => generation,
      /** Every entry: the process was deaf to other processes' writes for a while (host/broadcast). */
      forgetAll: () => forgetWhere(() => true),
      forgetBeing: (beingId: string) => forgetWhere((session) => session.beingId === beingId),
      forgetSessions: (ids: ReadonlyArray<string>) => {
        const gone = new Set(ids)
        forgetWhere((session) => gone.has(session.sessionId))
      }
    } as const
  }
}) {}

/**
 * Writes to `beings` reach the cache (contract/being-changes.ts), and the other processes'
 * (extensions/accounts/sessions.ts).
 */
export const BeingChangesLive = Layer.effect(
  BeingChanges,
  Effect.gen(function* () {
    const cache = yield* SessionCache
    const broadcast = yield* Broadcast
    return {
      changed: (beingId: string) =>
        Effect.zipRight(
          Effect.sync(() => cache.forgetBeing(beingId)),
          broadcast.send({ kind: "being.changed", beingId })
        )
    }
  })
).pipe(Layer.provide(SessionCache.Default))
