/**
 * Which bot a being's chat bridge speaks through: its own token (a chat_a connection's secret)
 * before the node's `CHAT_A_BOT_TOKEN`. A bot is known by a fingerprint of its token, which is
 * what pollers are keyed by and pairings store: the token itself stays redacted in memory.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"
import { ConnectionCredentials } from "../connection-credentials.ts"
import { ConnectionsRepository } from "../repositories/connections-repository.ts"
import { ChatBot } from "./ports.ts"
import { spanNamed } from "../../../kernel/spans.ts"

export const CHAT_PROVIDER = "chat_a"
/** How the registry (extensions/twin/providers.ts) and the twin status name it. */
export const CHAT_TITLE = "Chat A (Telegram)"
export const CHAT_ICON = "\u{1F4AC}"
const tokenField = "token"

export interface BotToken {
  readonly token: Redacted.Redacted<string>
  /** A fingerprint of the token: names the bot in pairings, pollers and logs. */
  readonly bot: string
  /** The being's own token rather than the node's. */
  readonly personal: boolean
}

export const fingerprint = (token: Redacted.Redacted<string>) =>
  createHash("sha256").update(Redacted.value(token)).digest("hex").slice(0, 16)

export class ChatTokens extends Effect.Service<ChatTokens>()("twin/ChatTokens", {
  dependencies: [ConnectionsRepository.Default, ConnectionCredentials.Default],
  effect: Effect.gen(function* () {
    const credentials = yield* ConnectionCredentials
    const connections = yield* ConnectionsRepository
    const { serverToken } = yield* ChatBot
    const server = Option.map(serverToken, (token): BotToken => ({ token, bot: fingerprint(token), personal: false }))

    /** The bot the being's chat speaks through, when any token resolves. */
    const resolve = (beingId: string) =>
      Effect.map(credentials.credential(beingId, CHAT_PROVIDER, tokenField), (own) =>
        Option.orElse(
          Option.map(own, (token): BotToken => ({ token, bot: fingerprint(token), personal: true })),
          () => server
        )
      )

    /** Every distinct bot some being may speak through now: the node's and each saved personal one. */
    const all = Effect.gen(function* () {
      const bots = new Map<string, Redacted.Redacted<string>>()
      if (Option.isSome(server)) bots.set(server.value.bot, server.value.token)
      for (const row of yield* connections.usableSecrets()) {
        if (row.provider !== CHAT_PROVIDER) continue
        const own = yield* credentials.credential(row.beingId, CHAT_PROVIDER, tokenField)
        if (Option.isSome(own)) bots.set(fingerprint(own.value), own.value)
      }
      return bots
    }).pipe(spanNamed("chatBridge.tokens"))

    return { resolve, all } as const
  })
}) {}
