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
 * This file holds the leases: which process runs a round, when another follows, and closing a
 * round whose process stopped. A round itself, as its thread hears it, is muse-reply.ts; the
 * skills it calls as tools, muse-tools.ts.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import { isoIn, nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import { newId } from "./ids.ts"
import { makeMuseReply, type Progress, wordsForFailure } from "./muse-reply.ts"
import { MuseContext } from "./ports.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { MuseRepliesRepository, type ReplyLease } from "./repositories/muse-replies-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

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

export class Muse extends Effect.Service<Muse>()("threads/Muse", {
  dependencies: [MessagesRepository.Default, ThreadsRepository.Default, MuseRepliesRepository.Default],
  scoped: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const replies = yield* MuseRepliesRepository
    const bus = yield* EventBus
    const context = yield* MuseContext
    const { reply, store, publishOn, presenceOf } = yield* makeMuseReply
    const fibers = yield* FiberSet.make()

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
      }).pipe(spanNamed("muse.start"))

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
      }).pipe(spanNamed("muse.closeStopped", { attributes: { threadId: lease.threadId } }))

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
