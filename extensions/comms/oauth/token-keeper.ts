/**
 * The access tokens of connections made by consent (mail_a and plugin oauth2 providers), opened
 * from each connection's sealed secret: a live token (renewed when it expires within a minute) and
 * a renewal after the API answered 401. One renewal per connection runs at a time, so two calls do
 * not spend one refresh token twice.
 *
 * On SQLite (one process) a lock per connection is enough, and renewed tokens are sealed back
 * behind the call (ConnectionSecrets.reseal) and kept here until the sealed copy answers them.
 * On PostgreSQL the processes of a cluster share the connection: the renewal is claimed on its row
 * (a compare-and-set with an expiry, so a claim of a process that died lapses), the claimer writes
 * the renewed tokens before letting go, and a process that lost the claim waits for it to end and
 * reads them from the row.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomUUID } from "node:crypto"
import type { ConnectionSecretsShape } from "../../twin/contract/connection-secrets.ts"
import type { Tokens } from "./protocol.ts"
import { spanNamed } from "../../../kernel/spans.ts"

/** Renewed this long before the provider's expiry, so a call never starts with a token about to lapse. */
const earlyMs = 60_000
/**
 * How long a claimed renewal holds without ending: longer than a token call takes, short enough when its process died.
 */
const claimMs = 20_000
/** How often a process that lost the claim looks at the row again. */
const lookAgain = Duration.millis(100)

const iso = (ms: number) => new Date(ms).toISOString()

const tokensOf = (fields: Readonly<Record<string, string>>): Tokens | null => {
  const { accessToken, refreshToken, expiresAt } = fields
  return accessToken !== undefined && refreshToken !== undefined && expiresAt !== undefined
    ? { accessToken, refreshToken, expiresAt }
    : null
}

export interface TokenKeeperOptions {
  /** New tokens for the refresh token; fails with an Error saying plainly what to do. */
  readonly renew: (provider: string, refreshToken: string, now: number) => Effect.Effect<Tokens, Error>
  /** Said when the connection is gone or its secret does not open. */
  readonly gone: string
}

export const makeTokenKeeper = (credentials: ConnectionSecretsShape, options: TokenKeeperOptions) => {
  const locks = new Map<string, Effect.Semaphore>()
  /**
   * Tokens renewed in this process, with the refresh token they were renewed from; a new consent (another refresh
   * token) voids them.
   */
  const renewed = new Map<string, Tokens & { readonly from: string }>()
  const keyOf = (beingId: string, provider: string) => `${beingId}/${provider}`
  /** This keeper's name on the renewals it claims. */
  const me = randomUUID()
  // Another process wrote the secret (a consent, a renewal, a delete): its row is the truth now.
  credentials.onReload((change) =>
    change === null ? renewed.clear() : renewed.delete(keyOf(change.beingId, change.provider))
  )

  /** The being's tokens for `provider`, when it holds a connection whose secret opens. */
  const current = (beingId: string, provider: string) =>
    Effect.map(
      credentials.fields(beingId, provider),
      Option.flatMap((fields) => {
        const stored = tokensOf(Redacted.value(fields))
        if (stored === null) return Option.none<Tokens>()
        const newer = renewed.get(keyOf(beingId, provider))
        const sameGrant =
          newer !== undefined && (newer.from === stored.refreshToken || newer.refreshToken === stored.refreshToken)
        return Option.some(sameGrant && Number(newer.expiresAt) > Number(stored.expiresAt) ? newer : stored)
      })
    )

  /** One process's renewal: this process's lock, its own copy of the renewed tokens. */
  const renewHere = (beingId: string, provider: string, stale: string) =>
    Effect.gen(function* () {
      const now = yield* current(beingId, provider)
      if (Option.isNone(now)) return yield* Effect.fail(new Error(options.gone))
      if (now.value.accessToken !== stale) return now.value.accessToken
      const tokens = yield* options.renew(provider, now.value.refreshToken, yield* Clock.currentTimeMillis)
      renewed.set(keyOf(beingId, provider), { ...tokens, from: now.value.refreshToken })
      yield* credentials.reseal(beingId, provider, { ...tokens })
      return tokens.accessToken
    })

  /** The tokens the connection's row holds now. */
  const fromRow = (beingId: string, provider: string) =>
    Effect.flatMap(credentials.stored(beingId, provider), (stored) => {
      const tokens = Option.flatMap(stored, (fields) => Option.fromNullable(tokensOf(Redacted.value(fields))))
      return Option.isSome(tokens) ? Effect.succeed(tokens.value) : Effect.fail(new Error(options.gone))
    })

  /** The renewal across processes: claimed on the row, or awaited and read from it. */
  const renewAcross = (beingId: string, provider: string, stale: string): Effect.Effect<string, Error> =>
    Effect.gen(function* () {
      const before = yield* fromRow(beingId, provider)
      if (before.accessToken !== stale) return before.accessToken
      const at = yield* Clock.currentTimeMillis
      if (!(yield* credentials.claimRenewal(beingId, provider, me, iso(at), iso(at + claimMs)))) {
        // Another process renews: its tokens are on the row once its claim ends.
        return yield* Effect.zipRight(Effect.sleep(lookAgain), renewAcross(beingId, provider, stale))
      }
      const claimed = Effect.gen(function* () {
        // A renewal that ended between the read above and the claim already replaced the token.
        const held = yield* fromRow(beingId, provider)
        if (held.accessToken !== stale) {
          yield* credentials.endRenewal(beingId, provider, me, null)
          return held.accessToken
        }
        const tokens = yield* options.renew(provider, held.refreshToken, yield* Clock.currentTimeMillis)
        yield* Effect.mapError(
          credentials.endRenewal(beingId, provider, me, { ...tokens }),
          (refused) => new Error(refused.message)
        )
        return tokens.accessToken
      })
      return yield* Effect.onError(claimed, () => Effect.ignore(credentials.endRenewal(beingId, provider, me, null)))
    })

  /** A token newer than `stale`: renewed now, unless another call (or process) already did while this one waited. */
  const refreshed = (beingId: string, provider: string, stale: string) => {
    const key = keyOf(beingId, provider)
    const lock = locks.get(key) ?? Effect.unsafeMakeSemaphore(1)
    locks.set(key, lock)
    return lock
      .withPermits(1)(
        Effect.gen(function* () {
          if (!credentials.shared) return yield* renewHere(beingId, provider, stale)
          const now = yield* current(beingId, provider)
          if (Option.isNone(now)) return yield* Effect.fail(new Error(options.gone))
          if (now.value.accessToken !== stale) return now.value.accessToken
          return yield* renewAcross(beingId, provider, stale)
        })
      )
      .pipe(spanNamed("integrations.refreshToken", { attributes: { provider } }))
  }

  /** A live access token: renewed first when it expires within a minute. */
  const live = (beingId: string, provider: string) =>
    Effect.gen(function* () {
      const held = yield* current(beingId, provider)
      if (Option.isNone(held)) return yield* Effect.fail(new Error(options.gone))
      return Number(held.value.expiresAt) - earlyMs > (yield* Clock.currentTimeMillis)
        ? held.value.accessToken
        : yield* refreshed(beingId, provider, held.value.accessToken)
    })

  return { current, refreshed, live } as const
}
