/**
 * The being actor: its presence and its signals. Messages for one being are handled one at a
 * time, so a raise, an answer and a dismiss never interleave, and an answer's check-then-flip
 * sits inside one transaction as well (the single-use step; it holds even if a second runner
 * ever handled the same being). Events go out after the transaction commits, never before.
 */
import * as Entity from "@effect/cluster/Entity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { entityLayer } from "../../kernel/actors/index.ts"
import { orDieOnStorageFault } from "../../kernel/repository.ts"
import { EventBus } from "../../kernel/events.ts"
import { nowIso } from "../../kernel/time.ts"
import { SignalActions } from "./contract/signal-actions.ts"
import { SignalDeliveries } from "./contract/signal-deliveries.ts"
import { BeingSocketsRepository } from "./being-sockets-repository.ts"
import { gate } from "./gate.ts"
import { HushRepository } from "./hush-repository.ts"
import { PresenceLease } from "./presence-lease.ts"
import { SignalClosed, SignalNotFound, UnknownOption } from "./contract/errors.ts"
import { Being } from "./protocol.ts"
import type { Signal } from "./contract/signal.ts"
import { raiseWriter } from "./raise.ts"
import { SignalsRepository } from "./signals-repository.ts"

const everyone = { kind: "all" } as const

const build = Effect.gen(function* () {
  const beingId = (yield* Entity.CurrentAddress).entityId
  const sql = yield* SqlClient.SqlClient
  const bus = yield* EventBus
  const actions = yield* SignalActions
  const deliveries = yield* SignalDeliveries
  const signals = yield* SignalsRepository
  const presence = yield* BeingSocketsRepository
  const gateReads = { hush: yield* HushRepository, signals }
  const write = yield* raiseWriter
  const desktop = { kind: "being", beingId } as const

  /** The being's own open signal, or why it cannot be changed. */
  const openSignal = (signalId: string) =>
    Effect.flatMap(
      signals.find({ beingId, signalId }),
      (found): Effect.Effect<Signal, SignalNotFound | SignalClosed> => {
        if (Option.isNone(found)) return Effect.fail(new SignalNotFound({ signalId }))
        const signal = found.value
        return signal.status === "open"
          ? Effect.succeed(signal)
          : Effect.fail(new SignalClosed({ signalId, status: signal.status }))
      }
    )

  /**
   * A conditional flip that flipped nothing: the signal is not the being's or not open (the refusal says which). An
   * open one found then is a defect: one actor per being makes that impossible today; single use does not rest on it.
   */
  const closedMeanwhile = (signalId: string) =>
    Effect.flatMap(openSignal(signalId), () =>
      Effect.die(new Error(`signal ${signalId} is open, yet could not be flipped`))
    )

  const updated = (signal: Signal) => Effect.as(bus.publish(desktop, { type: "signal.updated", signal }), signal)

  return Being.of({
    SocketOpened: ({ payload }) =>
      Effect.gen(function* () {
        const cameOnline = yield* presence.open(beingId, payload.connectionId, payload.processId, yield* nowIso)
        if (cameOnline) yield* bus.publish(everyone, { type: "presence.update", beingId, status: "online" })
      }),

    SocketClosed: ({ payload }) =>
      Effect.gen(function* () {
        const wentOffline = yield* presence.close(beingId, payload.connectionId)
        if (wentOffline) yield* bus.publish(everyone, { type: "presence.update", beingId, status: "offline" })
      }),

    RaiseSignal: ({ payload }) =>
      Effect.gen(function* () {
        const stamp = yield* gate({ beingId, trigger: payload.trigger, holdUntil: payload.holdUntil }, gateReads)
        return yield* write(beingId, payload, stamp)
      }),

    ReleaseSignal: ({ payload }) =>
      Effect.gen(function* () {
        const released = yield* signals.release({ beingId, signalId: payload.signalId })
        if (Option.isNone(released)) return false
        yield* bus.publish(desktop, { type: "signal.created", signal: released.value })
        yield* deliveries.delivered(released.value)
        return true
      }),

    AnswerSignal: ({ payload }) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            // Flipped first, in one statement; the read that tells why comes only when nothing was flipped, and
            // an unknown option fails the transaction, which undoes the flip (docs/decisions.md, "Answering a signal").
            const flipped = yield* signals.markAnswered({
              beingId,
              signalId: payload.signalId,
              optionId: payload.optionId,
              now: yield* nowIso
            })
            if (Option.isNone(flipped)) return yield* closedMeanwhile(payload.signalId)
            const answered = flipped.value
            if (!answered.options.some((option) => option.id === payload.optionId)) {
              return yield* Effect.fail(
                new UnknownOption({
                  signalId: answered.id,
                  optionId: payload.optionId,
                  options: answered.options.map((option) => option.id)
                })
              )
            }
            const result = yield* actions.dispatch({ signal: answered, optionId: payload.optionId })
            if (result === null) return answered
            yield* signals.recordResult({ signalId: answered.id, result })
            return { ...answered, actionResult: result }
          })
        )
        .pipe(orDieOnStorageFault, Effect.flatMap(updated)),

    DismissSignal: ({ payload }) =>
      Effect.gen(function* () {
        const signal = yield* openSignal(payload.signalId)
        const dismissed = yield* signals.markDismissed({ signalId: signal.id, now: yield* nowIso })
        if (Option.isNone(dismissed)) return yield* closedMeanwhile(signal.id)
        return yield* updated(dismissed.value)
      })
  })
})

/**
 * The entity kind, registered with the node's actor runtime, with its tables; the presence lease
 * (presence-lease.ts) sweeps the rows of processes gone first. The repositories are exported too:
 * the hush reads them (hush.ts), the live channel names its process with the lease.
 */
export const BeingLive = entityLayer(Being, build).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SignalsRepository.Default,
      BeingSocketsRepository.Default,
      HushRepository.Default,
      PresenceLease.Default
    )
  )
)
