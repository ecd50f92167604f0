/** The MCP feature's refusals on its HTTP routes (the protocol's own errors are JSON-RPC errors, not these). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** Unknown, or another person's: the same answer. */
export class McpClientNotFound extends refusal(404, "McpClientNotFound", "not_found") {}

export class TooManyMcpClients extends refusal(409, "TooManyMcpClients", "too_many_clients") {}
