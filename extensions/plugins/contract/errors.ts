/**
 * The plugins feature's refusals (their providers' OAuth): each its own tag for callers, its status
 * and code (docs/api.md) fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No plugin provider of that id connects through OAuth 2.0 on this node. */
export class OAuthProviderUnknown extends refusal(404, "OAuthProviderUnknown", "unknown_provider") {}
/** A provider with no OAuth client set, in the environment or in Settings. */
export class OAuthNotConfigured extends refusal(409, "OAuthNotConfigured", "oauth_not_configured") {}
/** The provider's token endpoint refused the exchange or the refresh. */
export class OAuthRefused extends refusal(409, "OAuthRefused", "oauth_refused") {}
