/**
 * comms as the node lists it: the consent routes a browser walks (mail_a's and a plugin provider's,
 * over the OAuth machinery in oauth/), and what other features read of it through contract tags:
 * mail_a as a provider the twin syncs (RemoteSyncs, over its mailboxes) and a plugin provider's
 * authorised fetch (PluginAuthFetch). Both stand on the twin's connection tags, listed below them.
 */
import * as Layer from "effect/Layer"
import { MailAAccountsLive } from "./mail-a/accounts.ts"
import { mailAConsentRoutes } from "./mail-a/consent-routes.ts"
import { MailASyncLive } from "./mail-a/sync-source.ts"
import { PluginAuthFetchLive } from "./oauth/authorised-fetch.ts"
import { pluginConsentRoutes } from "./oauth/plugin-consent-routes.ts"

export const consentRoutes = Layer.mergeAll(mailAConsentRoutes, pluginConsentRoutes)

export const commsFeature = Layer.mergeAll(MailASyncLive.pipe(Layer.provide(MailAAccountsLive)), PluginAuthFetchLive)
