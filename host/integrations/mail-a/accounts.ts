/**
 * A being's mail_a mailbox, for the code that acts for it (email.read, email.send, the twin's
 * sync): its tokens opened from the connection's secret, the access token refreshed when it has
 * expired (a minute early) and once more when the API answers 401, the renewed tokens sealed back
 * into the connection. One refresh per being runs at a time, so two calls do not spend one
 * refresh token twice.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { ConnectionCredentials } from "../../../extensions/twin/connection-credentials.ts"
import { NodeValuesLive } from "../../twin/node-values.ts"
import { IntegrationSettings } from "../settings.ts"
import { GmailUnauthorized } from "./gmail.ts"
import { type Client, refreshTokens, type Tokens } from "./oauth.ts"

export const MAIL_A_PROVIDER = "mail_a"

/** Refreshed this long before the provider's expiry, so a call never starts with a token about to lapse. */
const earlyMs = 60_000

export interface MailAMailbox {
  /** Runs `act` with a live access token; a 401 refreshes the token and runs it once more. */
  readonly use: <A>(act: (accessToken: string) => Promise<A>) => Effect.Effect<A, Error>
}

const tokensOf = (fields: Readonly<Record<string, string>>): Tokens | null => {
  const { accessToken, refreshToken, expiresAt } = fields
  return accessToken !== undefined && refreshToken !== undefined && expiresAt !== undefined ? { accessToken, refreshToken, expiresAt } : null
}

export class MailAAccounts extends Effect.Service<MailAAccounts>()("integrations/MailAAccounts", {
  dependencies: [ConnectionCredentials.Default],
  effect: Effect.gen(function* () {
    const credentials = yield* ConnectionCredentials
    const settings = yield* IntegrationSettings
    const client = Option.flatMap(settings.mailAClientId, (id) => Option.map(settings.mailAClientSecret, (secret): Client => ({ id, secret: Redacted.value(secret) })))
    const refreshing = new Map<string, Effect.Semaphore>()
    const lockOf = (beingId: string) => {
      const known = refreshing.get(beingId) ?? Effect.unsafeMakeSemaphore(1)
      refreshing.set(beingId, known)
      return known
    }

    /**
     * Tokens renewed in this process, by being, with the refresh token they were renewed from: the
     * sealed copy is written behind the call (ConnectionCredentials.reseal), so until it lands
     * these are newer. A new consent (another refresh token) or a deleted connection voids them.
     */
    const renewed = new Map<string, Tokens & { readonly from: string }>()

    const current = (beingId: string) =>
      Effect.map(credentials.fields(beingId, MAIL_A_PROVIDER), Option.flatMap((fields) => {
        const stored = tokensOf(Redacted.value(fields))
        if (stored === null) return Option.none<Tokens>()
        const newer = renewed.get(beingId)
        const sameGrant = newer !== undefined && (newer.from === stored.refreshToken || newer.refreshToken === stored.refreshToken)
        return Option.some(sameGrant && Number(newer.expiresAt) > Number(stored.expiresAt) ? newer : stored)
      }))

    const attempt = <A>(act: () => Promise<A>) => Effect.tryPromise({ try: act, catch: (error) => (error instanceof Error ? error : new Error(String(error))) })

    /** A token newer than `stale`: refreshed now, unless another call already did while this one waited. */
    const refreshed = (beingId: string, stale: string) =>
      lockOf(beingId).withPermits(1)(Effect.gen(function* () {
        const now = yield* current(beingId)
        if (Option.isNone(now)) return yield* Effect.fail(new Error("your mail connection is gone: connect mail again."))
        if (now.value.accessToken !== stale) return now.value.accessToken
        if (Option.isNone(client)) return yield* Effect.fail(new Error("mail_a is not configured on this node any more (MAIL_A_CLIENT_ID, MAIL_A_CLIENT_SECRET)."))
        const at = yield* Clock.currentTimeMillis
        const tokens = yield* attempt(() => refreshTokens(settings.mailATokenUrl, client.value, now.value.refreshToken, at)).pipe(
          Effect.mapError((error) => new Error(`your mail connection could not be renewed: ${error.message} Connect mail again from your twin.`))
        )
        renewed.set(beingId, { ...tokens, from: now.value.refreshToken })
        yield* credentials.reseal(beingId, MAIL_A_PROVIDER, { ...tokens })
        return tokens.accessToken
      })).pipe(Effect.withSpan("mailA.refresh"))

    const mailbox = (beingId: string) =>
      Effect.map(current(beingId), Option.map((): MailAMailbox => ({
        use: <A>(act: (accessToken: string) => Promise<A>) =>
          Effect.gen(function* () {
            const held = yield* current(beingId)
            if (Option.isNone(held)) return yield* Effect.fail(new Error("your mail connection is gone: connect mail again."))
            const tokens = held.value
            const live = Number(tokens.expiresAt) - earlyMs > (yield* Clock.currentTimeMillis) ? tokens.accessToken : yield* refreshed(beingId, tokens.accessToken)
            return yield* attempt(() => act(live)).pipe(
              Effect.catchIf((error) => error instanceof GmailUnauthorized, () => Effect.flatMap(refreshed(beingId, live), (fresh) => attempt(() => act(fresh))))
            )
          }).pipe(Effect.withSpan("mailA.use"))
      })))

    return {
      /** The node's OAuth client, when MAIL_A_CLIENT_ID and MAIL_A_CLIENT_SECRET are both set. */
      client,
      /** The being's mailbox, when it connected one through the consent screen. */
      mailbox: mailbox as (beingId: string) => Effect.Effect<Option.Option<MailAMailbox>>
    }
  })
}) {
  /** No being has a mailbox of its own: every call reads the node's IMAP_URL and sends through SMTP_URL. */
  static readonly none = Layer.succeed(MailAAccounts, MailAAccounts.make({ client: Option.none(), mailbox: () => Effect.succeedNone }))
}

/** The service with the node's salt bound, as the node lists it. */
export const MailAAccountsLive = MailAAccounts.Default.pipe(Layer.provide(NodeValuesLive))
