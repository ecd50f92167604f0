/**
 * Pairing a chat with a being's twin (spec: "Chat bridge rules", the chat_a pairing row). The
 * being asks for a code (`GET /api/connections/chat_a/pairing`): six characters from the
 * uppercase letters but I and O and the digits 2..9, kept on its pending chat_a connection (made
 * then, without a secret, when the node's token is the one it uses) for ten minutes. A chat that
 * sends `/start CODE` or the bare code to the same bot becomes the being's chat: the connection is
 * connected, the chat's title mirrored into its meta. `configured` is a token resolving;
 * `connected` (and `paired`) a chat paired through the bot the being speaks through now.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomInt, randomUUID } from "node:crypto"
import type { Caller } from "../../accounts/contract/session.ts"
import { isoIn, nowIso, nowMillis } from "../../../kernel/time.ts"
import type { ChatPairing } from "../contract/connections.ts"
import type { TwinProviderStatus } from "../contract/records.ts"
import { ConnectionsRepository } from "../repositories/connections-repository.ts"
import { getMe } from "./bot-api.ts"
import { ChatPairingsRepository, type ChatPairingRow } from "./pairings-repository.ts"
import { ChatBot } from "./ports.ts"
import { type BotToken, CHAT_ICON, CHAT_PROVIDER, CHAT_TITLE, ChatTokens } from "./tokens.ts"
import { fnNamed } from "../../../kernel/spans.ts"

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
export const codeLength = 6
const codeLifetimeMs = 10 * 60_000

/** `/start CODE` (as a deep link sends it, or typed, perhaps addressed `/start@bot`) or the bare code. */
export const codeIn = (text: string): string | null => {
  const match = /^(?:\/start(?:@\w+)?\s+)?([A-Za-z0-9]{6})$/.exec(text.trim())
  const code = match?.[1]?.toUpperCase()
  return code !== undefined && [...code].every((char) => codeAlphabet.includes(char)) ? code : null
}

const newCode = () => Array.from({ length: codeLength }, () => codeAlphabet[randomInt(codeAlphabet.length)]).join("")

const pairedThrough = (row: ChatPairingRow | null, bot: string | undefined) =>
  row !== null && row.chatId !== null && row.bot === bot

export class ChatPairings extends Effect.Service<ChatPairings>()("twin/ChatPairings", {
  dependencies: [ChatPairingsRepository.Default, ConnectionsRepository.Default, ChatTokens.Default],
  effect: Effect.gen(function* () {
    const pairings = yield* ChatPairingsRepository
    const connections = yield* ConnectionsRepository
    const tokens = yield* ChatTokens
    const { apiUrl } = yield* ChatBot
    /** Bots' usernames by fingerprint: a bot's username does not change while its token lives. */
    const usernames = new Map<string, string>()

    const usernameOf = (resolved: BotToken) =>
      usernames.has(resolved.bot)
        ? Effect.succeed(usernames.get(resolved.bot) ?? null)
        : getMe(apiUrl, resolved.token).pipe(
            Effect.tap((username) => Effect.sync(() => usernames.set(resolved.bot, username))),
            Effect.catchAll((error) =>
              Effect.as(Effect.logWarning(`chat_a getMe for bot ${resolved.bot}: ${error.message}`), null)
            )
          )

    /** The being's chat_a connection, made pending (without a secret) when it has none: the code is kept on it. */
    const pendingConnection = (beingId: string) =>
      Effect.gen(function* () {
        const found = yield* connections.find({ beingId, provider: CHAT_PROVIDER })
        if (Option.isSome(found)) return found.value
        yield* connections.create({
          id: randomUUID(),
          beingId,
          provider: CHAT_PROVIDER,
          label: CHAT_TITLE,
          status: "pending",
          meta: {},
          createdAt: yield* nowIso,
          secret: null
        })
        return Option.getOrThrow(yield* connections.find({ beingId, provider: CHAT_PROVIDER }))
      })

    const pairing = fnNamed("chatBridge.pairing")(function* (caller: Caller) {
      const resolved = yield* tokens.resolve(caller.beingId)
      if (Option.isNone(resolved)) {
        return {
          configured: false,
          paired: false,
          code: null,
          expiresAt: null,
          botUsername: null,
          deepLink: null,
          chatTitle: null
        } satisfies ChatPairing
      }
      yield* pendingConnection(caller.beingId)
      const botUsername = yield* usernameOf(resolved.value)
      let row = Option.getOrNull(yield* pairings.find(caller.beingId))
      if (pairedThrough(row, resolved.value.bot)) {
        return {
          configured: true,
          paired: true,
          code: null,
          expiresAt: null,
          botUsername,
          deepLink: botUsername === null ? null : `https://t.me/${botUsername}`,
          chatTitle: row?.chatTitle ?? null
        } satisfies ChatPairing
      }
      if (row?.code == null || row.expiresAt === null || Date.parse(row.expiresAt) <= (yield* nowMillis)) {
        yield* pairings.issue({ beingId: caller.beingId, code: newCode(), expiresAt: yield* isoIn(codeLifetimeMs) })
        row = Option.getOrNull(yield* pairings.find(caller.beingId))
      }
      const code = row?.code ?? null
      return {
        configured: true,
        paired: false,
        code,
        expiresAt: row?.expiresAt ?? null,
        botUsername,
        deepLink: botUsername === null || code === null ? null : `https://t.me/${botUsername}?start=${code}`,
        chatTitle: null
      } satisfies ChatPairing
    })

    /**
     * A chat sent `code` to the bot `bot`: when it is a being's pending code, unexpired, and the
     * being speaks through that bot, the chat becomes the being's (taken from any being it was
     * paired with through the same bot). Answers the being paired, or none.
     */
    const claim = fnNamed("chatBridge.claim")(function* (
      bot: string,
      code: string,
      chat: { readonly id: string; readonly title: string }
    ) {
      const row = Option.getOrNull(yield* pairings.byCode(code))
      if (row === null || row.expiresAt === null || Date.parse(row.expiresAt) <= (yield* nowMillis))
        return Option.none<string>()
      const resolved = yield* tokens.resolve(row.beingId)
      if (Option.isNone(resolved) || resolved.value.bot !== bot) return Option.none<string>()
      for (const previous of yield* pairings.byChat({ bot, chatId: chat.id })) {
        if (previous.beingId !== row.beingId) yield* unpair(previous.beingId, false)
      }
      yield* pairings.pair({
        beingId: row.beingId,
        bot,
        chatId: chat.id,
        chatTitle: chat.title,
        pairedAt: yield* nowIso
      })
      yield* setConnection(row.beingId, "connected", chat.title)
      return Option.some(row.beingId)
    })

    const setConnection = (beingId: string, status: "connected" | "pending", chatTitle: string | null) =>
      Effect.gen(function* () {
        const found = yield* connections.find({ beingId, provider: CHAT_PROVIDER })
        if (Option.isNone(found)) return
        const { chatTitle: _, ...meta } = found.value.meta
        yield* connections.update({
          id: found.value.id,
          beingId,
          label: found.value.label,
          status,
          meta: chatTitle === null ? meta : { ...meta, chatTitle }
        })
      })

    /** The being's chat is no longer paired; its connection (if it has one still) waits for a new code. */
    const unpair = (beingId: string, gone: boolean) =>
      Effect.zipRight(pairings.remove(beingId), gone ? Effect.void : setConnection(beingId, "pending", null))

    /** The being a chat speaks for through the bot, when it is paired and the being still speaks through that bot. */
    const beingOf = fnNamed("chatBridge.beingOf")(function* (bot: string, chatId: string) {
      for (const row of yield* pairings.byChat({ bot, chatId })) {
        const resolved = yield* tokens.resolve(row.beingId)
        if (Option.isSome(resolved) && resolved.value.bot === bot) return Option.some(row.beingId)
      }
      return Option.none<string>()
    })

    /**
     * The being's chat_a connection changed (saved, given a new token, or deleted): a deleted one
     * takes its pairing with it; a chat paired through a bot the being no longer speaks through
     * is unpaired, so the new bot pairs afresh.
     */
    const changed = fnNamed("chatBridge.connectionChanged")(function* (beingId: string) {
      const connection = yield* connections.find({ beingId, provider: CHAT_PROVIDER })
      if (Option.isNone(connection)) return yield* pairings.remove(beingId)
      const row = Option.getOrNull(yield* pairings.find(beingId))
      const resolved = yield* tokens.resolve(beingId)
      if (row?.chatId != null && !pairedThrough(row, Option.getOrUndefined(resolved)?.bot))
        yield* unpair(beingId, false)
    })

    /** chat_a as the being's twin status shows it. */
    const status = fnNamed("chatBridge.status")(function* (caller: Caller) {
      const resolved = yield* tokens.resolve(caller.beingId)
      const connection = Option.getOrNull(yield* connections.find({ beingId: caller.beingId, provider: CHAT_PROVIDER }))
      const connected = pairedThrough(
        Option.getOrNull(yield* pairings.find(caller.beingId)),
        Option.getOrUndefined(resolved)?.bot
      )
      const row: TwinProviderStatus = {
        provider: CHAT_PROVIDER,
        title: CHAT_TITLE,
        icon: CHAT_ICON,
        origin: "builtin",
        syncable: false,
        configured: Option.isSome(resolved),
        connected,
        connectionId: connection?.id ?? null,
        label: connection?.label ?? "",
        meta: connection?.meta ?? {},
        lastSyncAt: null,
        sync: { status: "idle", startedAt: null, finishedAt: null, error: null, detail: {} },
        hint: Option.isNone(resolved)
          ? "Save your own bot token (the chat_a connection), or ask the owner to set CHAT_A_BOT_TOKEN."
          : connected
            ? null
            : "Get your pairing code and send it to the bot from the chat you want to talk to your Muse from."
      }
      return row
    })

    return { pairing, claim, beingOf, changed, status } as const
  })
}) {}
