/**
 * A person's MCP clients: minted with the grants they chose (the token answered once, its SHA-256 digest kept),
 * listed without tokens, revoked. Every request to /api/mcp finds its client by the token's digest in the database,
 * so a revoked token stops at once on every process (no cache to forget); the revoking process also ends the
 * client's open sessions (sessions.ts), and tells the others to end theirs.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createHash, randomBytes } from "node:crypto"
import { Broadcast } from "../../kernel/broadcast.ts"
import { nowIso } from "../../kernel/time.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { McpClientNotFound, TooManyMcpClients } from "./contract/errors.ts"
import { MCP_CLIENTS_MAX, type McpClient, type MintedMcpClient, type MintMcpClient } from "./contract/records.ts"
import { McpClientsRepository, type StoredMcpClient } from "./clients-repository.ts"
import { McpSessions } from "./sessions.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** Tokens carry a prefix so a leaked one is recognisable (secret scanners, logs) as this node's MCP credential. */
export const MCP_TOKEN_PREFIX = "pmcp_"

const digestOf = (token: string) => createHash("sha256").update(token).digest("base64url")

const listed = ({ id, name, grants, createdAt }: StoredMcpClient): McpClient => ({ id, name, grants, createdAt })

/** Who a token speaks for: its client and the client's person. */
export interface McpIdentity {
  readonly client: StoredMcpClient
  readonly caller: Caller
}

export class McpClients extends Effect.Service<McpClients>()("mcp/McpClients", {
  dependencies: [McpClientsRepository.Default, McpSessions.Default],
  effect: Effect.gen(function* () {
    const repository = yield* McpClientsRepository
    const sessions = yield* McpSessions
    const beings = yield* BeingRegistry
    const broadcast = yield* Broadcast

    const mint = fnNamed("mcp.mint")(function* (beingId: string, input: MintMcpClient) {
      const held = yield* repository.listOf(beingId)
      if (held.length >= MCP_CLIENTS_MAX) {
        return yield* new TooManyMcpClients({
          message: `You have ${MCP_CLIENTS_MAX} MCP clients already: revoke one you no longer use first.`,
          details: { limit: MCP_CLIENTS_MAX }
        })
      }
      const token = `${MCP_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`
      const client = {
        id: randomBytes(12).toString("base64url"),
        beingId,
        name: input.name,
        grants: [...new Set(input.grants)],
        createdAt: yield* nowIso
      }
      yield* repository.insert({ ...client, tokenDigest: digestOf(token) })
      return { ...listed(client), token } satisfies MintedMcpClient
    })

    const list = (beingId: string) => Effect.map(repository.listOf(beingId), (clients) => clients.map(listed))

    const revoke = fnNamed("mcp.revoke")(function* (beingId: string, id: string) {
      const removed = yield* repository.remove({ beingId, id })
      if (Option.isNone(removed)) {
        return yield* new McpClientNotFound({ message: "You have no MCP client of that id." })
      }
      yield* sessions.endClient(id)
      yield* broadcast.send({ kind: "mcp.client.revoked", clientId: id })
      return { ok: true as const }
    })

    /** The token's client and person; none for an unknown or revoked token, or a person suspended or gone. */
    const authenticate = (token: string) =>
      Effect.gen(function* () {
        const found = yield* repository.byDigest(digestOf(token))
        if (Option.isNone(found)) return Option.none<McpIdentity>()
        const being = yield* beings.findHuman(found.value.beingId)
        if (Option.isNone(being) || being.value.suspended) return Option.none<McpIdentity>()
        return Option.some<McpIdentity>({
          client: found.value,
          caller: { beingId: being.value.id, isOwner: being.value.isOwner }
        })
      }).pipe(spanNamed("mcp.authenticate"))

    return { mint, list, revoke, authenticate } as const
  })
}) {}
