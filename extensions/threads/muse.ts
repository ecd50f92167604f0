/**
 * The Muse's replies. A reply runs off the request that posted the message, in a fiber of this
 * service's own set (supervised: the node's shutdown interrupts it), not in the being actor: a
 * reply streams for seconds, and the actor must keep answering its sockets' presence meanwhile.
 * One reply at a time per thread; a message posted while one runs asks for another afterwards,
 * which reads the thread as it is then.
 *
 * A reply, on the topic `thread:<id>`: `message.delta` with "" first (the Muse is thinking), then
 * the text as the standard tier streams it, `message.tool` as each tool chip moves pending →
 * running → done | error, and `message.created` with the stored reply. The tools are the node's
 * skills, called unapproved: a world-acting one raises the owner's decision signal instead of
 * running, and its chip says so. A reply that cannot be made (no model bound, a spend ceiling,
 * a failing provider) is still a stored reply that says why, at once.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { SkillDef } from "../../kernel/contract/skills.ts"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { nowIso } from "../../kernel/time.ts"
import { EventBus, type NodeEvent } from "../../host/contract/events.ts"
import type { ChatMessage, ChatResult, ToolCall, ToolDefinition } from "../models/contract/chat.ts"
import type { CallFailure } from "../models/contract/models.ts"
import { Models } from "../models/contract/models.ts"
import type { Message, ToolCallChip } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { attachmentBudget, conversationOf, systemPromptOf } from "./muse-prompt.ts"
import { type AttachmentReading, MuseContext, ThreadAttachments, ThreadBeings } from "./ports.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { makeThreadView } from "./thread-view.ts"

/** The spec's limit of model calls in one tool-calling loop. */
export const maxToolSteps = 10
/** How many of the thread's newest messages the Muse reads. */
const historyLength = 40
const maxToolResultChars = 8000

/** Function names may not hold dots on OpenAI's wire: `math.evaluate` travels as `math__evaluate`. */
const wireName = (skill: string) => skill.replaceAll(".", "__")

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}…`)

const parseArguments = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: text.trim() === "" ? {} : JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** What the Muse says when it could not reply, in plain words a person can act on. */
export const wordsForFailure = (museName: string, failure: CallFailure | { readonly _tag: "Defect" }): string => {
  switch (failure._tag) {
    case "ModelsUnavailable":
      return `${museName} is asleep: no model is bound to the standard tier on this node, so there is nobody to answer yet. The owner can bind one in the node's model settings.`
    case "SpendCeilingReached":
      return `${museName} cannot answer now: a spend ceiling was reached. ${failure.message}`
    case "ModelCallFailed":
      return `${museName} could not finish this reply: ${failure.message}`
    case "Defect":
      return `${museName} could not finish this reply: something went wrong on the node (it is in the node's log).`
  }
}

export class Muse extends Effect.Service<Muse>()("threads/Muse", {
  dependencies: [MessagesRepository.Default, ThreadsRepository.Default],
  scoped: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const threads = yield* ThreadsRepository
    const models = yield* Models
    const skills = yield* Skills
    const bus = yield* EventBus
    const context = yield* MuseContext
    const beings = yield* ThreadBeings
    const attachments = yield* ThreadAttachments
    const { announce } = yield* makeThreadView
    const fibers = yield* FiberSet.make()
    /** The threads a reply runs on now; `again`: a message came meanwhile, reply once more after. */
    const running = new Map<string, { again: boolean }>()
    /** Who waits for the next reply on a thread (the chat bridge). */
    const waiters = new Map<string, Array<Deferred.Deferred<Message>>>()

    /**
     * The skills as the model's tools. Each skill's tool is made once (its SkillDef is kept by the
     * registry while the skill is registered), and the whole list once per set of skills: every
     * reply would otherwise rebuild ~30 schemas' worth of objects.
     */
    const toolOf = new WeakMap<SkillDef, ToolDefinition>()
    let lastTools: { readonly defs: ReadonlyArray<SkillDef>; readonly tools: Array<ToolDefinition>; readonly byWireName: ReadonlyMap<string, string> } | null = null
    const toolsNow = Effect.map(skills.list, (defs) => {
      if (lastTools !== null && lastTools.defs.length === defs.length && lastTools.defs.every((def, index) => def === defs[index])) return lastTools
      const tools = defs.map((def) => {
        const known = toolOf.get(def)
        if (known !== undefined) return known
        const { $schema: _, ...parameters } = def.inputSchema
        const description = def.worldActing ? `${def.description} (Acts on the world: it waits for the owner's approval.)` : def.description
        const tool: ToolDefinition = { name: wireName(def.name), description, parameters }
        toolOf.set(def, tool)
        return tool
      })
      lastTools = { defs, tools, byWireName: new Map(defs.map((def) => [wireName(def.name), def.name])) }
      return lastTools
    })

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
      }).pipe(Effect.withSpan("muse.readAttachments"))

    const reply = (threadId: string, beingId: string) =>
      Effect.gen(function* () {
        const messageId = yield* newId
        const publish = (event: NodeEvent) => bus.publish({ kind: "topic", topic: `thread:${threadId}` }, event)
        // The thinking state: the reply's id is known before the Muse has read anything.
        yield* publish({ type: "message.delta", threadId, messageId, delta: "" })
        const museName = yield* context.museName(beingId)
        const presence = (doing: boolean) =>
          bus.publish({ kind: "being", beingId }, {
            type: "presence.update", beingId, status: context.online(beingId) ? "online" : "offline",
            ...(doing ? { doing: `${museName} is replying` } : {})
          })
        yield* presence(true)

        let text = ""
        const say = (piece: string) => {
          text += piece
          return publish({ type: "message.delta", threadId, messageId, delta: piece })
        }
        const chips = new Map<string, ToolCallChip>()
        const chip = (next: ToolCallChip) => {
          chips.set(next.id, next)
          return publish({ type: "message.tool", threadId, messageId, toolCall: next })
        }

        const runTool = (call: ToolCall, byWireName: ReadonlyMap<string, string>) =>
          Effect.gen(function* () {
            const name = byWireName.get(call.name) ?? call.name
            const base: ToolCallChip = { id: call.id, name, state: "pending", error: null, approval: null, durationMs: null }
            yield* chip(base)
            const args = parseArguments(call.arguments)
            if (!args.ok) {
              const error = "The arguments were not valid JSON; call the tool again with a JSON object."
              yield* chip({ ...base, state: "error", error })
              return { ok: false as const, error }
            }
            yield* chip({ ...base, state: "running" })
            const outcome: SkillOutcome = yield* skills.invoke({ name, input: args.value, beingId, approved: false }).pipe(
              Effect.catchTag("NotFound", (error) => Effect.succeed({ ok: false as const, error: error.message, durationMs: 0 }))
            )
            const approval = !outcome.ok && outcome.approval !== undefined
              ? { signalId: outcome.approval.signalId, delivered: outcome.approval.delivered }
              : null
            yield* chip({
              ...base, state: outcome.ok ? "done" : "error", error: outcome.ok ? null : outcome.error, approval, durationMs: outcome.durationMs
            })
            return outcome.ok ? { ok: true as const, output: outcome.output } : { ok: false as const, error: outcome.error }
          }).pipe(Effect.withSpan("muse.tool"))

        const converse = Effect.gen(function* () {
          const being = Option.getOrElse(yield* beings.find(beingId), () => ({ id: beingId, displayName: "the person you speak with" }))
          const history = yield* messages.recent({ threadId, limit: historyLength })
          const newest = history.findLast((message) => message.role === "user")?.content ?? ""
          const [persona, memories, profile, { tools, byWireName }, readings] = yield* Effect.all(
            [context.persona(being, museName), context.recall(beingId, newest), context.profile(beingId), toolsNow, readAttachments(history, beingId)],
            { concurrency: "unbounded" }
          )
          const conversation: Array<ChatMessage> = [
            { role: "system", content: systemPromptOf({ persona, museName, speakingWith: being.displayName, profile, memories }) },
            ...conversationOf(history, readings)
          ]
          for (let step = 0; step < maxToolSteps; step++) {
            let result: ChatResult | null = null
            yield* Stream.runForEach(
              models.chatStream("standard", { purpose: "muse reply", beingId, messages: conversation, tools }),
              (event) => event.type === "delta" ? say(event.text) : Effect.sync(() => { result = event.result })
            )
            const answered = result as ChatResult | null
            if (answered === null || answered.toolCalls.length === 0) return
            conversation.push({ role: "assistant", content: answered.text, toolCalls: answered.toolCalls })
            for (const call of answered.toolCalls) {
              const outcome = yield* runTool(call, byWireName)
              conversation.push({ role: "tool", toolCallId: call.id, content: clip(JSON.stringify(outcome), maxToolResultChars) })
            }
          }
          yield* say(`${text === "" ? "" : "\n\n"}(I stopped after ${maxToolSteps} rounds of tools.)`)
        })

        const failed = yield* converse.pipe(
          Effect.as(Option.none<CallFailure | { readonly _tag: "Defect" }>()),
          Effect.catchAll((failure) => Effect.succeed(Option.some(failure))),
          Effect.catchAllDefect((defect) =>
            Effect.as(Effect.logError("The Muse's reply failed", defect), Option.some({ _tag: "Defect" as const })))
        )
        if (Option.isSome(failed)) yield* say(`${text === "" ? "" : "\n\n"}${wordsForFailure(museName, failed.value)}`)

        const message: Message = {
          id: messageId, threadId, role: "assistant", authorId: null, content: text, attachments: [],
          toolCalls: [...chips.values()], createdAt: yield* nowIso
        }
        // A thread deleted meanwhile keeps nothing; its listeners still hear the reply end.
        if (Option.isSome(yield* threads.exists(threadId))) yield* messages.insert(message)
        yield* publish({ type: "message.created", message })
        yield* announce(threadId)
        yield* presence(false)
        return message
      }).pipe(Effect.withSpan("muse.reply", { attributes: { threadId } }))

    /** Starts a reply on the thread, or asks the running one for another after it. Returns at once. */
    const start = (threadId: string, beingId: string) =>
      Effect.suspend(() => {
        const busy = running.get(threadId)
        if (busy !== undefined) {
          busy.again = true
          return Effect.void
        }
        const state = { again: false }
        running.set(threadId, state)
        const rounds = Effect.gen(function* () {
          for (;;) {
            state.again = false
            const round = waiters.get(threadId) ?? []
            waiters.delete(threadId)
            const answered = yield* reply(threadId, beingId)
            for (const waiter of round) yield* Deferred.succeed(waiter, answered)
            if (!state.again) return
          }
        }).pipe(Effect.ensuring(Effect.sync(() => {
          if (running.get(threadId) === state) running.delete(threadId)
        })))
        return Effect.asVoid(FiberSet.run(fibers, rounds))
      }).pipe(Effect.withSpan("muse.start"))

    /** A reply that will answer what the thread holds now: started, or queued after the running one. */
    const nextReply = (threadId: string, beingId: string) =>
      Effect.gen(function* () {
        const waiter = yield* Deferred.make<Message>()
        const queued = waiters.get(threadId) ?? []
        queued.push(waiter)
        waiters.set(threadId, queued)
        yield* start(threadId, beingId)
        return Deferred.await(waiter)
      })

    return { start, nextReply } as const
  })
}) {}
