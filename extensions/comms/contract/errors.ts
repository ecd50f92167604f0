/**
 * The comms feature's refusals (connecting a mailbox, and the OAuth consent every provider goes
 * through): each its own tag for callers, its status and code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A mail_a connect on a node whose owner set no mail_a OAuth client. */
export class MailANotConfigured extends refusal(409, "MailANotConfigured", "mail_a_not_configured") {}
/** mail_a refused the code exchange or the profile read; nothing was connected. */
export class MailARefused extends refusal(409, "MailARefused", "mail_a_refused") {}
/** The provider answered that the person did not grant access. */
export class ConsentDeclined extends refusal(400, "ConsentDeclined", "consent_declined") {}
/** The provider's answer carries no code. */
export class ConsentCodeMissing extends refusal(400, "ConsentCodeMissing", "invalid_request") {}
/** A consent answer whose state is unknown, used, another provider's or expired. */
export class ConsentStateRefused extends refusal(400, "ConsentStateRefused", "invalid_state") {}
/** A consent answer for a consent another being started. */
export class ConsentNotYours extends refusal(403, "ConsentNotYours", "invalid_state") {}
/** No plugin provider of that id connects through OAuth 2.0 on this node. */
export class OAuthProviderUnknown extends refusal(404, "OAuthProviderUnknown", "unknown_provider") {}
/** A plugin provider with no OAuth client set, in the environment or in Settings. */
export class OAuthNotConfigured extends refusal(409, "OAuthNotConfigured", "oauth_not_configured") {}
/** A plugin provider's token endpoint refused the exchange or the refresh. */
export class OAuthRefused extends refusal(409, "OAuthRefused", "oauth_refused") {}
