/**
 * The agents feature's refusals: each its own tag for callers, its status and code (docs/api.md)
 * fixed for the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No agent card has that id. */
export class AgentNotFound extends refusal(404, "AgentNotFound", "not_found") {}
/** Someone else's private card was asked for. */
export class AgentPrivate extends refusal(403, "AgentPrivate", "forbidden") {}
/** A change to a card by someone who does not own it. */
export class AgentNotYours extends refusal(403, "AgentNotYours", "forbidden") {}
/** A card names a skill no one registered on this node. */
export class AgentSkillUnknown extends refusal(400, "AgentSkillUnknown", "unknown_skill") {}
