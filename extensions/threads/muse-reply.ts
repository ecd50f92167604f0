/**
 * One round of the Muse's reply, on the topic `thread:<id>`: `message.delta` with "" first (the
 * Muse is thinking), then the text as the standard tier streams it, `message.tool` as each tool chip
 * moves (muse-tools.ts), and `message.created` with the stored reply. A reply that cannot be made
 * (no model bound, a spend ceiling, a failing provider) is still a stored reply that says why, at
 * once. Apart from muse.ts, which decides which process runs a round and when (the lease), because
 * a round neither knows nor cares: it streams into the progress its lease renews and is told
 * whether the lease is still held before it stores.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { BusEvent } from "../../kernel/contract/events.ts"
import { EventBus } from "../../kernel/events.ts"
import { nowIso } from "../../kernel/time.ts"
import type { ChatMessage, ChatResult } from "../models/contract/chat.ts"
import type { CallFailure } from "../models/contract/models.ts"
import { Models } from "../models/contract/models.ts"
import type { Message, ToolCallChip } from "./contract/records.ts"
import { attachmentBudget, conversationOf, systemPromptOf } from "./muse-prompt.ts"
import { makeMuseTools } from "./muse-tools.ts"
import { type AttachmentReading, MuseContext, ThreadAttachments, ThreadBeings } from "./ports.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { makeThreadView } from "./thread-view.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** The spec's limit of model calls in one tool-calling loop. */
export const maxToolSteps = 10
/** How many of the thread's newest messages the Muse reads. */
const historyLength = 40
const maxToolResultChars = 8000

/** A round as far as it has streamed, renewed into its lease so another process can close it. */
export interface Progress {
  text: string
  readonly chips: Map<string, ToolCallChip>
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`)

/** What the Muse says when it could not reply, in plain words a person can act on. */
export const wordsForFailure = (
  museName: string,
  failure: CallFailure | { readonly _tag: "Defect" | "Stopped" }
): string => {
  switch (failure._tag) {
    case "ModelsUnavailable":
      return `${museName} is asleep: no model is bound to the standard tier on this node, so there is nobody to answer yet. The owner can bind one in Settings → Models.`
    case "SpendCeilingReached":
      return `${museName} cannot answer now: a spend ceiling was reached. ${failure.message}`
    case "ModelCallFailed":
      return `${museName} could not finish this reply: ${failure.message}`
    case "Defect":
      return `${museName} could not finish this reply: something went wrong on the node (it is in the node's log).`
    case "Stopped":
      return `${museName} could not finish this reply: the node's process that was writing it stopped. Ask again if you still want an answer.`
  }
}

export const makeMuseReply = Effect.gen(function* () {
  const messages = yield* MessagesRepository
  const threads = yield* ThreadsRepository
  const models = yield* Models
  const bus = yield* EventBus
  const context = yield* MuseContext
  const beings = yield* ThreadBeings
  const attachments = yield* ThreadAttachments
  const { announce } = yield* makeThreadView
  const { toolsNow, runTool } = yield* makeMuseTools

  /**
   * What the thread's attachments say, by file id: each read once, as its author's own upload
   * (the Muse's thread has one author, the being), one at a time (a scan's pages are model calls).
   */
  const readAttachments = (history: ReadonlyArray<Message>, beingId: string) =>
    Effect.gen(function* () {
      const readings = new Map<string, AttachmentReading>()
      for (const message of history) {
        if (message.role !== "user") continue
        for (const file of message.attachments) {
          if (readings.has(file.fileId)) continue
          readings.set(file.fileId, yield* attachments.read(message.authorId ?? beingId, file.fileId, attachmentBudget))
        }
      }
      return readings
    }).pipe(spanNamed("muse.readAttachments"))

  const publishOn = (threadId: string, event: BusEvent) =>
    bus.publish({ kind: "topic", topic: `thread:${threadId}` }, event)
  const presenceOf = (beingId: string, museName: string, doing: boolean) =>
    Effect.flatMap(context.online(beingId), (online) =>
      bus.publish(
        { kind: "being", beingId },
        {
          type: "presence.update",
          beingId,
          status: online ? "online" : "offline",
          ...(doing ? { doing: `${museName} is replying` } : {})
        }
      )
    )

  /** The reply stored and told: its topic hears it end, the inbox is updated, the presence cleared. */
  const store = (beingId: string, museName: string, message: Message) =>
    Effect.gen(function* () {
      // A thread deleted meanwhile keeps nothing; its listeners still hear the reply end.
      if (Option.isSome(yield* threads.exists(message.threadId))) yield* messages.insert(message)
      yield* publishOn(message.threadId, { type: "message.created", message })
      yield* announce(message.threadId)
      yield* presenceOf(beingId, museName, false)
    })

  /**
   * One round: streams the reply `messageId` into `progress`, then stores and announces it, unless
   * `held` says the lease was lost meanwhile (another process closed the round already).
   */
  const reply = (
    threadId: string,
    beingId: string,
    messageId: string,
    progress: Progress,
    held: Effect.Effect<boolean>
  ) =>
    Effect.gen(function* () {
      const publish = (event: BusEvent) => publishOn(threadId, event)
      // The thinking state: the reply's id is known before the Muse has read anything.
      yield* publish({ type: "message.delta", threadId, messageId, delta: "" })
      // The name and the profile in one read: the name is needed at once (the presence), the profile for the prompt.
      const { museName, lines: profile } = yield* context.profile(beingId)
      const presence = (doing: boolean) => presenceOf(beingId, museName, doing)
      yield* presence(true)

      const say = (piece: string) => {
        progress.text += piece
        return publish({ type: "message.delta", threadId, messageId, delta: piece })
      }
      const chips = progress.chips
      const chip = (next: ToolCallChip) => {
        chips.set(next.id, next)
        return publish({ type: "message.tool", threadId, messageId, toolCall: next })
      }

      const converse = Effect.gen(function* () {
        const being = Option.getOrElse(yield* beings.find(beingId), () => ({
          id: beingId,
          displayName: "the person you speak with"
        }))
        const history = yield* messages.recent({ threadId, limit: historyLength })
        const newest = history.findLast((message) => message.role === "user")?.content ?? ""
        const { tools, byWireName } = yield* toolsNow
        const persona = yield* context.persona(being, museName)
        // Recall may embed the message and an attachment may be a scan read by a model: those wait on the network, so
        // they wait together; without attachments there is nothing to wait beside, and a fiber each would only cost.
        const attached = history.some((message) => message.role === "user" && message.attachments.length > 0)
        const [memories, readings] = yield* Effect.all(
          [context.recall(beingId, newest), readAttachments(history, beingId)],
          { concurrency: attached ? "unbounded" : 1 }
        )
        const conversation: Array<ChatMessage> = [
          {
            role: "system",
            content: systemPromptOf({ persona, museName, speakingWith: being.displayName, profile, memories })
          },
          ...conversationOf(history, readings)
        ]
        for (let step = 0; step < maxToolSteps; step++) {
          let result: ChatResult | null = null
          yield* Stream.runForEach(
            models.chatStream("standard", { purpose: "muse reply", beingId, messages: conversation, tools }),
            (event) =>
              event.type === "delta"
                ? say(event.text)
                : Effect.sync(() => {
                    result = event.result
                  })
          )
          const answered = result as ChatResult | null
          if (answered === null || answered.toolCalls.length === 0) return
          conversation.push({ role: "assistant", content: answered.text, toolCalls: answered.toolCalls })
          for (const call of answered.toolCalls) {
            const outcome = yield* runTool(call, byWireName, beingId, chip)
            conversation.push({
              role: "tool",
              toolCallId: call.id,
              content: clip(JSON.stringify(outcome), maxToolResultChars)
            })
          }
        }
        yield* say(`${progress.text === "" ? "" : "\n\n"}(I stopped after ${maxToolSteps} rounds of tools.)`)
      })

      const failed = yield* converse.pipe(
        Effect.as(Option.none<CallFailure | { readonly _tag: "Defect" }>()),
        Effect.catchAll((failure) => Effect.succeed(Option.some(failure))),
        Effect.catchAllDefect((defect) =>
          Effect.as(Effect.logError("The Muse's reply failed", defect), Option.some({ _tag: "Defect" as const }))
        )
      )
      if (Option.isSome(failed))
        yield* say(`${progress.text === "" ? "" : "\n\n"}${wordsForFailure(museName, failed.value)}`)

      if (!(yield* held))
        return yield* Effect.logWarning("A Muse reply lost its lease before it was stored; another process closed it")
      yield* store(beingId, museName, {
        id: messageId,
        threadId,
        role: "assistant",
        authorId: null,
        content: progress.text,
        attachments: [],
        toolCalls: [...chips.values()],
        createdAt: yield* nowIso
      })
    }).pipe(spanNamed("muse.reply", { attributes: { threadId } }))

  return { reply, store, publishOn, presenceOf } as const
})
