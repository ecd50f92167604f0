/**
 * The chat bridge's pollers (spec: "Chat bridge rules"; no public endpoint): one long-polling
 * loop per distinct bot token, the node's and each being's own, started at boot and whenever a
 * chat_a connection changes, stopped when no being speaks through its bot any more (so deleting a
 * personal connection stops its loop unless the token is the node's). A failing poll waits
 * before the next, doubling up to a minute (or as long as the API asked); waits are on the
 * Effect Clock.
 *
 * What a chat sends: its pairing code pairs it; from a paired chat the text goes to the being's
 * Muse, and the reply (within 120 s) comes back in pieces of about 3,900 characters; an unpaired
 * chat is told to send its code, and nothing else happens. Each message in and out of a paired
 * chat is a twin activity: `thought` for what the being said to its Muse, `sent` for each reply sent.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as FiberMap from "effect/FiberMap"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { runSingleton } from "../../../kernel/actors/singletons.ts"
import { Activity } from "../activity.ts"
import { chunksOf } from "../chunks.ts"
import { type BotChat, getUpdates, sendMessage, type Update } from "./bot-api.ts"
import { codeIn, ChatPairings } from "./pairing.ts"
import { ChatBot, MuseReplies } from "./ports.ts"
import { ChatBridgeSettings } from "./settings.ts"
import { CHAT_PROVIDER, ChatTokens } from "./tokens.ts"
import { ConnectionCredentials } from "../connection-credentials.ts"
import { spanNamed } from "../../../kernel/spans.ts"

/** The spec's wait for the Muse's reply, and the size of one piece of it. */
export const replyWait = Duration.seconds(120)
export const chunkSize = 3_900
const maxBackoffMs = 60_000

export const notPairedAnswer =
  "This chat is not paired yet. Send the six-character pairing code your twin shows under Connections (chat_a)."
export const pairedAnswer = "Paired. What you write here now goes to your Muse, and its replies come back here."
const lateAnswer = "Your Muse did not answer within 120 seconds. Its reply will be in your muse thread on the node."

const titleOf = (chat: BotChat) =>
  chat.title ??
  ([chat.first_name, chat.last_name].filter((part) => part !== undefined).join(" ") ||
    (chat.username ?? String(chat.id)))

export class ChatPollers extends Effect.Service<ChatPollers>()("twin/ChatPollers", {
  dependencies: [ChatPairings.Default, ChatTokens.Default, Activity.Default, ConnectionCredentials.Default],
  scoped: Effect.gen(function* () {
    const pairings = yield* ChatPairings
    const tokens = yield* ChatTokens
    const credentials = yield* ConnectionCredentials
    const activity = yield* Activity
    const muse = yield* MuseReplies
    const { apiUrl } = yield* ChatBot
    const { chatAPollTimeoutSeconds } = yield* ChatBridgeSettings
    const pollers = yield* FiberMap.make<string>()
    const startPoller = yield* FiberMap.runtime(pollers)<never>()
    const conversations = yield* FiberSet.runtime(yield* FiberSet.make())<never>()
    const lock = yield* Effect.makeSemaphore(1)

    const send = (bot: string, token: Redacted.Redacted<string>, chatId: string, text: string) =>
      Effect.asVoid(sendMessage(apiUrl, token, chatId, text)).pipe(
        Effect.tapError((error) =>
          Effect.logWarning(`chat_a bot ${bot} could not answer chat ${chatId}: ${error.message}`)
        ),
        Effect.either
      )

    /** A paired chat's message: to the Muse, and its reply back in pieces, each piece an activity. */
    const converse = (bot: string, token: Redacted.Redacted<string>, beingId: string, chat: BotChat, text: string) =>
      Effect.gen(function* () {
        const chatId = String(chat.id)
        yield* activity.record(beingId, "thought", `Told your Muse through chat_a (${titleOf(chat)})`)
        const reply = yield* muse
          .ask(beingId, text)
          .pipe(Effect.timeoutTo({ duration: replyWait, onSuccess: (content) => content, onTimeout: () => lateAnswer }))
        const pieces = chunksOf(reply, chunkSize)
        for (const piece of pieces.length === 0 ? [lateAnswer] : pieces) {
          if (Either.isLeft(yield* send(bot, token, chatId, piece))) return
          yield* activity.record(beingId, "sent", `Sent your Muse's reply to ${titleOf(chat)} on chat_a`)
        }
      }).pipe(spanNamed("chatBridge.converse"))

    const handle = (bot: string, token: Redacted.Redacted<string>, update: Update) =>
      Effect.gen(function* () {
        const message = update.message
        if (message?.text === undefined) return
        const chatId = String(message.chat.id)
        const code = codeIn(message.text)
        if (code !== null) {
          const paired = yield* pairings.claim(bot, code, { id: chatId, title: titleOf(message.chat) })
          if (Option.isSome(paired)) {
            yield* Effect.logInfo(`chat_a chat ${chatId} paired through bot ${bot}`)
            return yield* send(bot, token, chatId, pairedAnswer)
          }
        }
        const being = yield* pairings.beingOf(bot, chatId)
        if (Option.isNone(being)) return yield* send(bot, token, chatId, notPairedAnswer)
        // A reply takes seconds: the poll goes on meanwhile, and the Muse answers a thread's messages in turn.
        conversations(converse(bot, token, being.value, message.chat, message.text))
      }).pipe(
        Effect.catchAllCause((cause) => Effect.logError(`chat_a bot ${bot}: an update could not be handled`, cause))
      )

    const poll = (bot: string, token: Redacted.Redacted<string>) =>
      Effect.gen(function* () {
        let offset = 0
        let failures = 0
        yield* Effect.logInfo(`chat_a poller for bot ${bot} started`)
        while (true) {
          const polled = yield* Effect.either(getUpdates(apiUrl, token, offset, chatAPollTimeoutSeconds))
          if (Either.isLeft(polled)) {
            failures += 1
            const waitMs = Math.max(
              Math.min(maxBackoffMs, 1000 * 2 ** (failures - 1)),
              (polled.left.retryAfter ?? 0) * 1000
            )
            yield* Effect.logWarning(
              `chat_a poller for bot ${bot}: ${polled.left.message}; polling again in ${waitMs / 1000} s`
            )
            yield* Effect.sleep(Duration.millis(waitMs))
            continue
          }
          failures = 0
          for (const { updateId, update } of polled.right) {
            offset = Math.max(offset, updateId + 1)
            if (Option.isSome(update)) yield* handle(bot, token, update.value)
          }
        }
      }).pipe(Effect.onInterrupt(() => Effect.logInfo(`chat_a poller for bot ${bot} stopped`)))

    /**
     * A bot's poller runs once across the cluster (two would take each other's updates), named by
     * the token's fingerprint, never the token; this fiber holds the registration while the bot is in use.
     */
    const onePerCluster = (bot: string, token: Redacted.Redacted<string>) =>
      Effect.scoped(Effect.zipRight(runSingleton(`chatBridge.poller.${bot}`, poll(bot, token)), Effect.never))

    /** The pollers made to match the bots in use: missing ones started, unused ones stopped. */
    const reconcile = lock
      .withPermits(1)(
        Effect.gen(function* () {
          const wanted = yield* tokens.all
          for (const [bot] of [...pollers]) if (!wanted.has(bot)) yield* FiberMap.remove(pollers, bot)
          for (const [bot, token] of wanted)
            if (!(yield* FiberMap.has(pollers, bot))) startPoller(bot, onePerCluster(bot, token))
        })
      )
      .pipe(spanNamed("chatBridge.reconcile"))

    /** After a being's chat_a connection was saved, changed or deleted. */
    const connectionChanged = (beingId: string) => Effect.zipRight(pairings.changed(beingId), reconcile)

    // A chat_a connection written by another process of the cluster: its poller registration
    // (held in every process that wants the bot) is made or dropped here too.
    const followOthers = yield* FiberSet.runtime(yield* FiberSet.make())<never>()
    credentials.onReload((change) => {
      if (change === null) followOthers(reconcile)
      else if (change.provider === CHAT_PROVIDER) followOthers(connectionChanged(change.beingId))
    })

    yield* reconcile
    return { connectionChanged } as const
  })
}) {}
