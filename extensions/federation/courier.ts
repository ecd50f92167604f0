/**
 * The courier drains the outbox: each due row is sealed afresh to its peer (protocol 2, the only
 * one sent) and posted to the peer's deliver route. A receipt settles the row (delivered, or a
 * `replayed` that says an earlier attempt arrived; refused with the peer's code; stuck for a peer
 * that does not speak protocol 2: never a downgrade). No answer is a failed attempt on the
 * backoff of backoff.ts, and it counts for every due row of that peer in the run, so a dead peer
 * costs one connection per run however long its queue: the node can flood neither it nor
 * itself. A peer that cannot be dialled and names a relay has its direct messages left at the
 * relay instead. Once a peer answered a run's first row, its other conversations go side by side
 * (a few at once), each conversation's rows one after another, each after the last one's receipt,
 * so the peer's thread shows them in the order they were written. One run at a time (the loop and a flush wait for each other), at most a batch
 * of rows; the loop runs every 30 seconds and as soon as a message is queued.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { nowMillis } from "../../kernel/time.ts"
import { PeerDirectory, PeerTransport } from "./contract/ports.ts"
import type { CourierRun, FlushResult } from "./contract/records.ts"
import { DeliveryReceipt, type SealedEnvelope, type SignedNodeDescriptor } from "./contract/wire.ts"
import { retryAfterMs } from "./backoff.ts"
import { NodeDocuments } from "./documents.ts"
import { MessagesRepository, type DueRow, type Settlement } from "./repositories/messages-repository.ts"
import { RelayStateRepository } from "./repositories/relay-state-repository.ts"
import { depositAt } from "./relay/deposit.ts"
import { utf8 } from "./wire/encoding.ts"
import { canonical } from "./wire/jcs.ts"
import { sealTo } from "./wire/seal.ts"
import { runSingleton } from "../../kernel/actors/singletons.ts"
import { Wakes } from "../../kernel/actors/wakes.ts"
import { fnNamed } from "../../kernel/spans.ts"

const DELIVER_PATH = "/api/federation/peer/deliver"
/** Rows one run takes at most; the rest wait for the next run. */
const BATCH = 100
/** A peer's conversations whose rows are in flight at once (each conversation's one at a time, in order). */
const CONVERSATIONS_AT_ONCE = 4
export const COURIER_INTERVAL = "30 seconds"
/** The courier's name as a singleton and as a timer to wake. */
const COURIER_TIMER = "federation.courier"

const decodeReceipt = Schema.decodeUnknownOption(DeliveryReceipt)

/** The envelope of one attempt: a fresh seal each time (the seal's key is one-use). */
export const sealedEnvelopeOf = (
  descriptor: SignedNodeDescriptor,
  audience: string,
  row: DueRow
): SealedEnvelope | null => {
  const seal = sealTo(audience, utf8(canonical(row.document)), utf8(audience))
  return seal === null
    ? null
    : {
        v: 1,
        type: "svc.envelope.sealed",
        protocol: 2,
        descriptor,
        audience: audience as SealedEnvelope["audience"],
        seal
      }
}

export class Courier extends Effect.Service<Courier>()("federation/Courier", {
  dependencies: [MessagesRepository.Default, NodeDocuments.Default, RelayStateRepository.Default, Wakes.Default],
  effect: Effect.gen(function* () {
    const messages = yield* MessagesRepository
    const relayState = yield* RelayStateRepository
    const wakes = yield* Wakes
    const documents = yield* NodeDocuments
    const directory = yield* PeerDirectory
    const transport = yield* PeerTransport
    const oneAtATime = yield* Effect.makeSemaphore(1)

    const drain = Effect.gen(function* () {
      const now = yield* nowMillis
      const at = new Date(now).toISOString()
      const tally = { attempted: 0, delivered: 0, unreachable: 0, refused: 0, deposited: 0 }
      const due = yield* messages.due({ now: at, limit: BATCH })
      const byPeer = Map.groupBy(due, (row) => row.peerDid)
      const settle = (row: DueRow, change: Omit<Settlement, "id" | "updatedAt">) =>
        messages.settle({ id: row.id, updatedAt: at, ...change })
      const end = (row: DueRow, state: "delivered" | "refused" | "stuck", lastError: string | null) =>
        settle(row, { state, attempts: row.attempts + 1, nextAttemptAt: null, lastError })

      for (const [peerDid, rows] of byPeer) {
        const peer = yield* directory.find(peerDid)
        if (Option.isNone(peer)) {
          // The owner deleted the peer: nothing can go; the conversation stays with its rows stuck.
          yield* Effect.forEach(rows, (row) => end(row, "stuck", "The peer was deleted; nothing is sent to it."), {
            discard: true
          })
          tally.refused += rows.length
          continue
        }
        // Nothing is sent to a blocked peer; its rows wait, unattempted, for an unblock.
        if (peer.value.status === "blocked") continue
        const descriptor = yield* documents.descriptor
        const reachable = peer.value

        /** The peer gave no receipt for the first of `rest`: those rows share the failed attempt (or go to its relay). */
        const failed = (rest: ReadonlyArray<DueRow>, direct: string) =>
          Effect.gen(function* () {
            let waiting = rest
            let reason = direct
            // Direct failed: a peer that named a relay has its direct messages left there instead.
            const relay = reachable.relay
            if (relay !== null) {
              const left: Array<DueRow> = []
              for (const row of waiting.filter((row) => row.kind === "message")) {
                const sealed = sealedEnvelopeOf(descriptor, peerDid, row)
                const refused = sealed === null ? "not sealable" : yield* depositAt(transport, relay, sealed)
                if (refused !== null) {
                  reason = `${direct}; ${refused}.`
                  break
                }
                yield* end(row, "delivered", null)
                left.push(row)
              }
              tally.delivered += left.length
              tally.deposited += left.length
              waiting = waiting.filter((row) => !left.includes(row))
            }
            let exhausted = false
            yield* Effect.forEach(
              waiting,
              (row) => {
                const attempts = row.attempts + 1
                const wait = retryAfterMs(attempts)
                if (wait === null) exhausted = true
                return settle(
                  row,
                  wait === null
                    ? {
                        state: "stuck",
                        attempts,
                        nextAttemptAt: null,
                        lastError: `Gave up after ${attempts} attempts over about two days: ${reason}`
                      }
                    : {
                        state: "queued",
                        attempts,
                        nextAttemptAt: new Date(now + wait).toISOString(),
                        lastError: reason
                      }
                )
              },
              { discard: true }
            )
            tally.unreachable += waiting.length
            if (exhausted) yield* directory.unreachable(peerDid, reason)
          })

        /**
         * Sends `rows` one after another, each after the last one's receipt (so the peer lands them in this order);
         * at the first without a receipt, that row and the rest of `sharers` from it share the failure and nothing
         * more goes. Answers whether the peer answered (false: it did not; null: nothing was sent).
         */
        const inOrder = (rows: ReadonlyArray<DueRow>, sharers: ReadonlyArray<DueRow>) =>
          Effect.gen(function* () {
            let answered: boolean | null = null
            for (const row of rows) {
              const envelope = sealedEnvelopeOf(descriptor, peerDid, row)
              if (envelope === null) {
                yield* end(row, "stuck", "The peer's did is not a key a message can be sealed to.")
                tally.refused += 1
                continue
              }
              tally.attempted += 1
              const answer = yield* Effect.either(transport.post(reachable.endpoint, DELIVER_PATH, { envelope }))
              const receipt =
                answer._tag === "Right" && answer.right.status === 200
                  ? decodeReceipt(answer.right.json)
                  : Option.none()
              if (Option.isNone(receipt)) {
                const direct =
                  answer._tag === "Left"
                    ? answer.left.reason
                    : `It answered HTTP ${answer.right.status}, not a receipt.`
                yield* failed(sharers.slice(sharers.indexOf(row)), direct)
                return false
              }
              answered = true
              const { accepted, code, reason } = receipt.value
              if (accepted || code === "replayed") {
                yield* end(row, "delivered", null)
                tally.delivered += 1
              } else if (code === "protocol_unsupported") {
                yield* end(
                  row,
                  "stuck",
                  `The peer does not take protocol 2; nothing is sent in the clear. (${reason.slice(0, 200)})`
                )
                tally.refused += 1
              } else {
                yield* end(row, "refused", `${code}: ${reason.slice(0, 200)}`)
                tally.refused += 1
              }
            }
            return answered
          })

        // The first row that goes, goes alone: a peer that does not answer it costs one connection, and every row
        // of it waits. Once it answered, its conversations go side by side, each in its own order.
        let next = 0
        let answered: boolean | null = null
        while (answered === null && next < rows.length) {
          answered = yield* inOrder(rows.slice(next, next + 1), rows.slice(next))
          next += 1
        }
        if (answered !== true) continue
        const conversations = Map.groupBy(rows.slice(next), (row) => row.threadId ?? "")
        yield* Effect.forEach(conversations.values(), (inOne) => inOrder(inOne, inOne), {
          concurrency: CONVERSATIONS_AT_ONCE,
          discard: true
        })
      }
      const { deposited, ...run } = tally
      if (deposited > 0) yield* relayState.count({ deposited, collected: 0 })
      return { ...run, at } satisfies CourierRun
    })

    /** One pass over the due rows. */
    const run = fnNamed("federation.courier")(() => oneAtATime.withPermits(1)(drain))

    /**
     * The owner's flush: stuck rows back in the queue, then a run (the handler adds the collect and the relay's
     * counts).
     */
    const flush = fnNamed("federation.flush")(function* () {
      const requeued = yield* messages.requeueStuck(new Date(yield* nowMillis).toISOString())
      const ran = yield* run()
      return { ...ran, requeued, collected: 0, relayed: 0 } satisfies FlushResult
    })

    /**
     * Something was queued: the loop runs now rather than at its next 30 seconds. Only due rows
     * go, so a peer in backoff is not dialled any sooner (a row queued for it waits with the rest).
     * The courier may run in another process of the cluster: the wake reaches it there (kernel/actors/wakes.ts).
     */
    const wake = wakes.wake(COURIER_TIMER)

    return { run, flush, wake, woken: wakes.woken(COURIER_TIMER) } as const
  })
}) {}

/**
 * A federation loop: `run` now and again 30 seconds after each run on the node's Clock, or as
 * soon as `wakes` has something; a failed run is logged and the loop goes on.
 */
export const everyThirtySeconds = <A, E>(
  what: string,
  name: string,
  run: Effect.Effect<A, E>,
  woken?: Effect.Effect<void>
) => {
  const pause =
    woken === undefined ? Effect.sleep(COURIER_INTERVAL) : Effect.race(Effect.sleep(COURIER_INTERVAL), woken)
  // Once across the cluster: two couriers would post the same row twice.
  return runSingleton(
    name,
    run.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning(`The ${what}'s run failed`, cause)),
      Effect.zipLeft(pause),
      Effect.forever
    )
  )
}

/** The courier on its own, every 30 seconds, and at once when a message is queued. */
export const CourierLoop = Layer.scopedDiscard(
  Effect.flatMap(Courier, (courier) => everyThirtySeconds("courier", COURIER_TIMER, courier.run(), courier.woken))
)
