/**
 * Connecting a being's own mailbox through mail_a's consent screen. `start` keeps a pending
 * consent server-side (in the database, ../oauth/pending-consents.ts) under a random `state`, with
 * its PKCE verifier and the being that asked, and answers the consent URL. `finish` takes the state back exactly once: unknown, used, expired
 * or another being's is refused; then the code is exchanged (with the verifier and the client
 * secret) and the tokens sealed as the being's mail_a connection, labelled with its address.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Caller } from "../../accounts/contract/session.ts"
import { MailANotConfigured, MailARefused } from "../contract/errors.ts"
import { ConnectionGrants, ConnectionSecrets, encryptionKeyMissing } from "../../twin/contract/connection-secrets.ts"
import { PublicOrigin } from "../../../kernel/origin.ts"
import { IntegrationSettings } from "../contract/integration-settings.ts"
import { MAIL_A_PROVIDER, MailAAccounts } from "./accounts.ts"
import { profileAddress } from "./gmail.ts"
import { type CallbackQuery, codeOf, makePendingConsents } from "../oauth/pending-consents.ts"
import { PendingConsentsRepository } from "../oauth/pending-consents-repository.ts"
import { consentUrl, exchangeCode } from "../oauth/protocol.ts"
import { ownerTokenSend } from "./token-send.ts"

import { MAIL_A_CALLBACK_PATH, mailAScopes } from "../contract/mail-a.ts"
import { fnNamed } from "../../../kernel/spans.ts"
export { MAIL_A_AUTH_PATH, MAIL_A_CALLBACK_PATH } from "../contract/mail-a.ts"

/** Google hands a refresh token only for offline access, and again on a repeated consent only when asked. */
const googleConsentParams = { access_type: "offline", prompt: "consent" } as const

const notConfigured = () =>
  new MailANotConfigured({
    message:
      "This node has no mail_a OAuth client yet: its owner sets MAIL_A_CLIENT_ID and MAIL_A_CLIENT_SECRET (see docs/operations.md) and restarts it."
  })

export class MailAConsent extends Effect.Service<MailAConsent>()("integrations/MailAConsent", {
  dependencies: [MailAAccounts.Default, PendingConsentsRepository.Default],
  effect: Effect.gen(function* () {
    const settings = yield* IntegrationSettings
    const accounts = yield* MailAAccounts
    const connections = yield* ConnectionGrants
    const secrets = yield* ConnectionSecrets
    const origin = yield* PublicOrigin
    const consents = yield* makePendingConsents("Connect mail")
    const redirectUri = `${origin.url}${MAIL_A_CALLBACK_PATH}`

    const start = fnNamed("mailA.startConsent")(function* (caller: Caller) {
      if (Option.isNone(accounts.client)) return yield* notConfigured()
      if (!secrets.sealable) return yield* encryptionKeyMissing()
      const { state, verifier } = yield* consents.open(caller, MAIL_A_PROVIDER)
      return consentUrl(settings.mailAAuthUrl, accounts.client.value, {
        redirectUri,
        state,
        verifier,
        scopes: mailAScopes,
        extra: googleConsentParams
      })
    })

    const finish = fnNamed("mailA.finishConsent")(function* (caller: Caller, query: CallbackQuery) {
      const consent = yield* consents.take(caller, MAIL_A_PROVIDER, query.state)
      const code = yield* codeOf(query, "The mail provider", "connect mail again")
      if (Option.isNone(accounts.client)) return yield* notConfigured()
      const client = accounts.client.value
      const failed = (error: unknown) =>
        new MailARefused({
          message: `Connecting mail failed: ${error instanceof Error ? error.message : "no reason given."} Nothing was connected; connect mail again.`
        })
      const now = yield* Clock.currentTimeMillis
      const tokens = yield* Effect.tryPromise({
        try: () =>
          exchangeCode(
            ownerTokenSend,
            settings.mailATokenUrl,
            client,
            { code, verifier: consent.verifier, redirectUri },
            now
          ),
        catch: failed
      })
      const address = yield* Effect.tryPromise({
        try: () => profileAddress(settings.mailAApiUrl, tokens.accessToken),
        catch: failed
      })
      return yield* connections.grant(caller.beingId, MAIL_A_PROVIDER, {
        label: address === "" ? "Mail" : address.slice(0, 80),
        meta: address === "" ? {} : { address: address.slice(0, 320) },
        secret: { ...tokens }
      })
    })

    return { start, finish, redirectUri } as const
  })
}) {}
