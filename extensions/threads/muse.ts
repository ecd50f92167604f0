/**
 * The Muse's replies. A reply runs off the request that posted the message, in a fiber of this
 * service's own set (supervised: the node's shutdown interrupts it), not in the being actor: a
 * reply streams for seconds, and the actor must keep answering its sockets' presence meanwhile.
 * One reply at a time per thread across every process that shares the database: the process that
 * claims the thread's lease (muse-replies-repository.ts) runs the reply; a message posted while
 * one runs, on any process, asks the holder for another afterwards, which reads the thread as it
 * is then. The holder renews its lease as it streams; a lease nobody renews (its process was
 * killed) is taken over by another process's sweep, which stores the reply as far as it went,
 * saying it was cut off, and runs the round asked for meanwhile (docs/decisions.md "The Muse
 * across processes").
 *
 * A reply, on the topic `thread:<id>`: `message.delta` with "" first (the Muse is thinking), then
 * the text as the standard tier streams it, `message.tool` as each tool chip moves pending →
 * running → done | error, and `message.created` with the stored reply. The tools are the node's
 * skills, called unapproved: a world-acting one raises the owner's decision signal instead of
 * running, and its chip says so. A reply that cannot be made (no model bound, a spend ceiling,
 * a failing provider) is still a stored reply that says why, at once.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import type { SkillDef } from "../../kernel/contract/skills.ts"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import type { BusEvent } from "../../kernel/contract/events.ts"
import { EventBus } from "../../kernel/events.ts"
import type { ChatMessage, ChatResult, ToolCall, ToolDefinition } from "../models/contract/chat.ts"
import type { CallFailure } from "../models/contract/models.ts"
import { Models } from "../models/contract/models.ts"
import type { Message, ToolCallChip } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { attachmentBudget, conversationOf, systemPromptOf } from "./muse-prompt.ts"
import { type AttachmentReading, MuseContext, ThreadAttachments, ThreadBeings } from "./ports.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { MuseRepliesRepository, type ReplyLease } from "./repositories/muse-replies-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { makeThreadView } from "./thread-view.ts"

/** The spec's limit of model calls in one tool-calling loop. */
export const maxToolSteps = 10
/** How many of the thread's newest messages the Muse reads. */
const historyLength = 40
const maxToolResultChars = 8000
/** A reply's lease lasts this long unless its holder renews it: how soon a killed process's reply is closed. */
export const LEASE_MS = 8_000
/** The holder renews well within the lease, so a busy process does not lose it. */
const RENEW_EVERY = Duration.seconds(2)
/** How often each process looks for leases nobody renews. */
const SWEEP_EVERY = Duration.seconds(2)

/** Where a reply was asked for: started here (its id), or queued after the round in progress elsewhere. */
export type Claimed =
  | { readonly mine: true; readonly messageId: string }
  | { readonly mine: false; readonly inProgress: string | null }

/** A round as far as it has streamed, renewed into its lease so another process can close it. */
interface Progress {
  text: string
  readonly chips: Map<string, ToolCallChip>
}

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
export const wordsForFailure = (
  museName: string,
  failure: CallFailure | { readonly _tag: "Defect" | "Stopped" }
): string => {
  switch (failure._tag) {
    case "ModelsUnavailable":
      return `${museName} is asleep: no model is bound to the standard tier on this node, so there is nobody to answer yet. The owner can bind one in the node's model settings.`
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

export class Muse extends Effect.Service<Muse>()("threads/Muse", {
  dependencies: [MessagesRepository.Default, ThreadsRepository.Default, MuseRepliesRepository.Default],
  scoped: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const threads = yield* ThreadsRepository
    const replies = yield* MuseRepliesRepository
    const models = yield* Models
    const skills = yield* Skills
    const bus = yield* EventBus
    const context = yield* MuseContext
    const beings = yield* ThreadBeings
    const attachments = yield* ThreadAttachments
    const { announce } = yield* makeThreadView
    const fibers = yield* FiberSet.make()

    /**
     * The skills as the model's tools. Each skill's tool is made once (its SkillDef is kept by the
     * registry while the skill is registered), and the whole list once per set of skills: every
     * reply would otherwise rebuild ~30 schemas' worth of objects.
     */
    const toolOf = new WeakMap<SkillDef, ToolDefinition>()
    let lastTools: {
      readonly defs: ReadonlyArray<SkillDef>
      readonly tools: Array<ToolDefinition>
      readonly byWireName: ReadonlyMap<string, string>
    } | null = null
    const toolsNow = Effect.map(skills.list, (defs) => {
      if (
        lastTools !== null &&
        lastTools.defs.length === defs.length &&
        lastTools.defs.every((def, index) => def === defs[index])
      )
        return lastTools
      const tools = defs.map((def) => {
        const known = toolOf.get(def)
        if (known !== undefined) return known
        const { $schema: _, ...parameters } = def.inputSchema
        const description = def.worldActing
          ? `${def.description} (Acts on the world: it waits for the owner's approval.)`
          : def.description
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
            readings.set(
              file.fileId,
              yield* attachments.read(message.authorId ?? beingId, file.fileId, attachmentBudget)
            )
          }
        }
        return readings
      }).pipe(Effect.withSpan("muse.readAttachments"))

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
        const museName = yield* context.museName(beingId)
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

        const runTool = (call: ToolCall, byWireName: ReadonlyMap<string, string>) =>
          Effect.gen(function* () {
            const name = byWireName.get(call.name) ?? call.name
            const base: ToolCallChip = {
              id: call.id,
              name,
              state: "pending",
              error: null,
              approval: null,
              durationMs: null
            }
            yield* chip(base)
            const args = parseArguments(call.arguments)
            if (!args.ok) {
              const error = "The arguments were not valid JSON; call the tool again with a JSON object."
              yield* chip({ ...base, state: "error", error })
              return { ok: false as const, error }
            }
            yield* chip({ ...base, state: "running" })
            const outcome: SkillOutcome = yield* skills
              .invoke({ name, input: args.value, beingId, approved: false })
              .pipe(
                Effect.catchTag("UnknownSkill", (error) =>
                  Effect.succeed({ ok: false as const, error: error.message, durationMs: 0 })
                )
              )
            const approval =
              !outcome.ok && outcome.approval !== undefined
                ? { signalId: outcome.approval.signalId, delivered: outcome.approval.delivered }
                : null
            yield* chip({
              ...base,
              state: outcome.ok ? "done" : "error",
              error: outcome.ok ? null : outcome.error,
              approval,
              durationMs: outcome.durationMs
            })
            return outcome.ok
              ? { ok: true as const, output: outcome.output }
              : { ok: false as const, error: outcome.error }
          }).pipe(Effect.withSpan("muse.tool"))

        const converse = Effect.gen(function* () {
          const being = Option.getOrElse(yield* beings.find(beingId), () => ({
            id: beingId,
            displayName: "the person you speak with"
          }))
          const history = yield* messages.recent({ threadId, limit: historyLength })
          const newest = history.findLast((message) => message.role === "user")?.content ?? ""
          const [persona, memories, profile, { tools, byWireName }, readings] = yield* Effect.all(
            [
              context.persona(being, museName),
              context.recall(beingId, newest),
              context.profile(beingId),
              toolsNow,
              readAttachments(history, beingId)
            ],
            { concurrency: "unbounded" }
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
              const outcome = yield* runTool(call, byWireName)
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
      }).pipe(Effect.withSpan("muse.reply", { attributes: { threadId } }))

    const leaseEnd = isoIn(LEASE_MS)

    /** One round under the lease: renewed (with what has streamed) while it runs; a lost lease stops it. */
    const round = (threadId: string, beingId: string, holder: string, messageId: string) =>
      Effect.gen(function* () {
        const progress: Progress = { text: "", chips: new Map() }
        const renew = Effect.flatMap(leaseEnd, (expiresAt) =>
          replies.renew({ threadId, holder, expiresAt, text: progress.text, toolCalls: [...progress.chips.values()] })
        ).pipe(Effect.map(Option.isSome))
        const keep = Effect.gen(function* () {
          for (;;) {
            yield* Effect.sleep(RENEW_EVERY)
            if (!(yield* renew))
              return yield* Effect.logWarning("A Muse reply lost its lease mid-reply; another process closed it")
          }
        })
        yield* Effect.raceFirst(reply(threadId, beingId, messageId, progress, renew), keep)
      })

    /** After a round: one more while messages came meanwhile, then the lease given back. */
    const rounds = (threadId: string, beingId: string, holder: string) =>
      Effect.gen(function* () {
        for (;;) {
          const messageId = yield* newId
          if (Option.isSome(yield* replies.next({ threadId, holder, messageId, expiresAt: yield* leaseEnd }))) {
            yield* round(threadId, beingId, holder, messageId)
            continue
          }
          if (Option.isSome(yield* replies.release({ threadId, holder }))) return
          // Neither: a message came between the two statements (go round), or the lease is no longer ours.
          if (Option.isNone(yield* replies.holds({ threadId, holder }))) return
        }
      })

    /**
     * Starts a reply on the thread (this process claimed its lease), or asks the holder, on whatever
     * process, for another after the round in progress. Returns at once.
     */
    const start = (threadId: string, beingId: string) =>
      Effect.gen(function* () {
        const holder = yield* newId
        // An upsert with RETURNING always answers one row.
        const claimed = yield* Effect.orDie(replies.claim({ threadId, beingId, holder, expiresAt: yield* leaseEnd }))
        if (claimed.holder !== holder) return { mine: false, inProgress: claimed.messageId } satisfies Claimed
        const messageId = yield* newId
        const run = Effect.gen(function* () {
          if (Option.isSome(yield* replies.begin({ threadId, holder, messageId, expiresAt: yield* leaseEnd }))) {
            yield* round(threadId, beingId, holder, messageId)
          }
          yield* rounds(threadId, beingId, holder)
        })
        yield* FiberSet.run(fibers, run)
        return { mine: true, messageId } satisfies Claimed
      }).pipe(Effect.withSpan("muse.start"))

    /**
     * A lease whose holder stopped renewing it: the round it was streaming is stored as far as it
     * went (or as stored, if the holder stored it before dying), saying it was cut off; never run
     * again (its model calls were spent). Then the rounds asked for meanwhile run here.
     */
    const close = (lease: ReplyLease, holder: string) =>
      Effect.gen(function* () {
        if (lease.messageId !== null) {
          const museName = yield* context.museName(lease.beingId)
          const stored = yield* messages.find({ threadId: lease.threadId, messageId: lease.messageId })
          if (Option.isSome(stored)) {
            yield* publishOn(lease.threadId, { type: "message.created", message: stored.value })
            yield* presenceOf(lease.beingId, museName, false)
          } else {
            const cut = wordsForFailure(museName, { _tag: "Stopped" })
            yield* store(lease.beingId, museName, {
              id: lease.messageId,
              threadId: lease.threadId,
              role: "assistant",
              authorId: null,
              content: `${lease.text === "" ? "" : `${lease.text}\n\n`}${cut}`,
              attachments: [],
              toolCalls: lease.toolCalls.map((chip) =>
                chip.state === "pending" || chip.state === "running"
                  ? { ...chip, state: "error", error: "The node's process stopped before it finished." }
                  : chip
              ),
              createdAt: yield* nowIso
            })
          }
        }
        yield* rounds(lease.threadId, lease.beingId, holder)
      }).pipe(Effect.withSpan("muse.closeStopped", { attributes: { threadId: lease.threadId } }))

    /** Every process sweeps: the CAS lets one taker win, and no dead holder waits on the cluster's own failover. */
    const sweep = Effect.gen(function* () {
      const now = yield* nowIso
      for (const lease of yield* replies.expired(now)) {
        const holder = yield* newId
        const taken = yield* replies.takeOver({
          threadId: lease.threadId,
          from: lease.holder,
          to: holder,
          now,
          expiresAt: yield* leaseEnd
        })
        if (Option.isNone(taken)) continue
        yield* Effect.logWarning("A Muse reply's lease expired (its process stopped); closing it here", {
          threadId: lease.threadId
        })
        yield* FiberSet.run(fibers, close(lease, holder))
      }
    })
    yield* Effect.forkScoped(
      Effect.repeat(
        Effect.catchAllCause(sweep, (cause) => Effect.logWarning("Sweeping the Muse's expired replies failed", cause)),
        Schedule.spaced(SWEEP_EVERY)
      )
    )

    /**
     * Runs `post` (the being's message stored), asks for a reply and waits for the one that answers
     * it, from whichever process runs it: the thread's `message.created` on the bus (which carries
     * other processes' events). It is our own round when we claimed the lease; else the first round
     * announced (its thinking delta) after the one in progress at our claim, which the claim's
     * `again` guarantees.
     */
    const nextReply = <A, E, R>(threadId: string, beingId: string, post: Effect.Effect<A, E, R>) =>
      Effect.scoped(
        Effect.gen(function* () {
          const deliveries = yield* bus.subscribe
          yield* post
          const claimed = yield* start(threadId, beingId)
          const announced: Array<string> = []
          for (;;) {
            const { audience, event } = yield* Queue.take(deliveries)
            if (audience.kind !== "topic" || audience.topic !== `thread:${threadId}`) continue
            if (event.type === "message.delta" && event.delta === "" && !announced.includes(event.messageId))
              announced.push(event.messageId)
            if (event.type !== "message.created" || event.message.role !== "assistant") continue
            const id = event.message.id
            if (claimed.mine) {
              if (id === claimed.messageId) return event.message
              continue
            }
            if (id === claimed.inProgress) continue
            const at = announced.indexOf(id)
            const after = claimed.inProgress === null ? -1 : announced.indexOf(claimed.inProgress)
            if (at >= 0 && at > after) return event.message
          }
        })
      )

    return { start, nextReply } as const
  })
}) {}
