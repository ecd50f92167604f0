/**
 * How mail_a reaches its token endpoint: the node's outbound HTTP with private addresses allowed,
 * because MAIL_A_TOKEN_URL is the owner's own setting (a test's or a proxy's loopback address is
 * theirs to choose, as SEARCH_URL is), unlike a plugin manifest's token URL, which is held to
 * WEB_ALLOW_PRIVATE (../oauth/plugin-consent.ts). The answer is bounded all the same (../oauth/protocol.ts).
 */
import { makeOutbound } from "../../../kernel/http/outbound.ts"
import { hostVersion } from "../../../kernel/version.ts"

export const ownerTokenSend = makeOutbound({ allowPrivate: true, userAgent: `svc-node/${hostVersion}` })
