/**
 * A being's mail_a mailbox, for the code that acts for it (email.read, email.send, the twin's
 * sync): its tokens opened from the connection's secret, the access token refreshed when it has
 * expired (a minute early) and once more when the API answers 401, the renewed tokens sealed back
 * into the connection. One refresh per being runs at a time, so two calls do not spend one
 * refresh token twice.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { ConnectionSecrets } from "../../twin/contract/connection-secrets.ts"
import { IntegrationSettings } from "../contract/integration-settings.ts"
import { GmailUnauthorized } from "./gmail.ts"
import { makeTokenKeeper } from "../oauth/token-keeper.ts"
import { type Client, refreshTokens } from "../oauth/protocol.ts"
import { ownerTokenSend } from "./token-send.ts"
import { spanNamed } from "../../../kernel/spans.ts"

export const MAIL_A_PROVIDER = "mail_a"

export interface MailAMailbox {
  /**
   * Runs `act` with a live access token; a 401 refreshes the token and runs it once more. Interrupting it aborts
   * `signal`.
   */
  readonly use: <A>(act: (accessToken: string, signal: AbortSignal) => Promise<A>) => Effect.Effect<A, Error>
}

export class MailAAccounts extends Effect.Service<MailAAccounts>()("integrations/MailAAccounts", {
  effect: Effect.gen(function* () {
    const credentials = yield* ConnectionSecrets
    const settings = yield* IntegrationSettings
    const client = Option.flatMap(settings.mailAClientId, (id) =>
      Option.map(settings.mailAClientSecret, (secret): Client => ({ id, secret: Redacted.value(secret) }))
    )
    const keeper = makeTokenKeeper(credentials, {
      gone: "your mail connection is gone: connect mail again.",
      renew: (_provider, refreshToken, at) =>
        Option.isNone(client)
          ? Effect.fail(
              new Error("mail_a is not configured on this node any more (MAIL_A_CLIENT_ID, MAIL_A_CLIENT_SECRET).")
            )
          : Effect.tryPromise({
              try: () => refreshTokens(ownerTokenSend, settings.mailATokenUrl, client.value, refreshToken, at),
              catch: (error) =>
                new Error(
                  `your mail connection could not be renewed: ${error instanceof Error ? error.message : String(error)} Connect mail again from your twin.`
                )
            })
    })

    const attempt = <A>(act: (signal: AbortSignal) => Promise<A>) =>
      Effect.tryPromise({ try: act, catch: (error) => (error instanceof Error ? error : new Error(String(error))) })

    const mailbox = (beingId: string) =>
      Effect.map(
        keeper.current(beingId, MAIL_A_PROVIDER),
        Option.map(
          (): MailAMailbox => ({
            use: <A>(act: (accessToken: string, signal: AbortSignal) => Promise<A>) =>
              Effect.gen(function* () {
                const live = yield* keeper.live(beingId, MAIL_A_PROVIDER)
                return yield* attempt((signal) => act(live, signal)).pipe(
                  Effect.catchIf(
                    (error) => error instanceof GmailUnauthorized,
                    () =>
                      Effect.flatMap(keeper.refreshed(beingId, MAIL_A_PROVIDER, live), (fresh) =>
                        attempt((signal) => act(fresh, signal))
                      )
                  )
                )
              }).pipe(spanNamed("mailA.use"))
          })
        )
      )

    return {
      /** The node's OAuth client, when MAIL_A_CLIENT_ID and MAIL_A_CLIENT_SECRET are both set. */
      client,
      /** The being's mailbox, when it connected one through the consent screen. */
      mailbox: mailbox as (beingId: string) => Effect.Effect<Option.Option<MailAMailbox>>
    }
  })
}) {
  /** No being has a mailbox of its own: every call reads the node's IMAP_URL and sends through SMTP_URL. */
  static readonly none = Layer.succeed(
    MailAAccounts,
    MailAAccounts.make({ client: Option.none(), mailbox: () => Effect.succeedNone })
  )
}

/** The service as the node lists it, over the twin's ConnectionSecrets (which the node provides). */
export const MailAAccountsLive = MailAAccounts.Default
