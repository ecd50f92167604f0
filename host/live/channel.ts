/**
 * The live channel at /api/ws: one WebSocket per client tab. Every handshake counts in the
 * caller's address's global rate budget; it is admitted only with a live session (handshake.ts)
 * whose being holds fewer than LIVE_MAX_SOCKETS_PER_BEING open sockets across the node (429
 * `too_many_sockets`: a signed-in person could otherwise open sockets without end), greets with `hello`, tells the being actor a socket opened and
 * closed (presence), follows topics a client asks for when the topic's owner allows it, fans
 * every event of the bus out to its audience, and closes a session's sockets (code 4001) as
 * soon as that session is revoked. Each heartbeat it also drops sockets whose session expired
 * or vanished without an announcement.
 */
import type * as Cause from "effect/Cause"
import * as Headers from "@effect/platform/Headers"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import type { IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocketServer, type RawData, type WebSocket } from "ws"
import { BeingSocketsRepository } from "../../actors/being/being-sockets-repository.ts"
import { PresenceLease } from "../../actors/being/presence-lease.ts"
import { Being } from "../../actors/being/protocol.ts"
import { EventBus } from "../../kernel/events.ts"
import { Settings } from "../../kernel/settings.ts"
import { AuthSettings } from "../../extensions/accounts/settings.ts"
import { nowIso } from "../../kernel/time.ts"
import type { SessionShape } from "../../extensions/accounts/contract/session.ts"
import { Sessions } from "../../extensions/accounts/sessions.ts"
import { RateLimiter } from "../../kernel/http/rate-limit.ts"
import { LiveConnections } from "../../kernel/live/live-connections.ts"
import { admit, refuse, refusals, type Refusal } from "./handshake.ts"
import {
  ClientMessage,
  closeCodes,
  HEARTBEAT_INTERVAL,
  MAX_CLIENT_FRAME,
  MAX_QUEUED_MESSAGES,
  type ServerReply
} from "./contract/protocol.ts"
import { NodeServer } from "./server.ts"
import { TopicAccess } from "../../kernel/live/topic-access.ts"
import { liveSocket } from "./ws-socket.ts"

const decodeClientMessage = Schema.decodeUnknownEither(Schema.parseJson(ClientMessage))

/** Runs `step` over and over for the layer's life; a step that fails is logged and the loop goes on. */
const loop = <E>(what: string, step: Effect.Effect<void, E>) =>
  Effect.forkScoped(Effect.forever(Effect.catchAllCause(step, (cause) => Effect.logError(`${what} failed`, cause))))

export interface LiveChannelShape {
  /** Closes every socket whose session is no longer valid (expired, or removed unannounced). */
  readonly reconcile: Effect.Effect<void>
}

export class LiveChannel extends Context.Tag("host/LiveChannel")<LiveChannel, LiveChannelShape>() {}

/** How long a greeting waits for the being's actor to count the socket (see `serve`). */
const COUNT_WAIT = "2 seconds"

/** How a socket's count is told again after a lapse: soon, then every few seconds, for a minute at most. */
const untilTaken = Schedule.exponential("200 millis").pipe(
  Schedule.union(Schedule.spaced("5 seconds")),
  Schedule.upTo("1 minute")
)

export const LiveChannelLive = Layer.scoped(
  LiveChannel,
  Effect.gen(function* () {
    const server = yield* NodeServer
    const connections = yield* LiveConnections
    const topics = yield* TopicAccess
    const sessions = yield* Sessions
    const bus = yield* EventBus
    const being = yield* Being.client
    // This process's name on its sockets' presence rows, kept alive by its lease.
    const lease = yield* PresenceLease
    const processId = lease.processId
    const settings = yield* Settings
    const policy = { publicUrl: settings.publicUrl, cookieDomain: (yield* AuthSettings).cookieDomain }
    const limiter = yield* RateLimiter
    const beingSockets = yield* BeingSocketsRepository

    /** The handshake's share of its address's global budget, counted whatever the verdict after it. */
    const charged = (request: IncomingMessage) =>
      limiter
        .charge(
          {
            remoteAddress: Option.fromNullable(request.socket.remoteAddress),
            headers: Headers.fromInput(request.headers)
          },
          null
        )
        .pipe(
          Effect.as(Option.none<Refusal>()),
          Effect.catchTag("RateLimited", (limited) =>
            Effect.succeed(
              Option.some<Refusal>({
                status: 429,
                body: { error: "rate_limited", message: limited.message, details: limited.details }
              })
            )
          )
        )

    /** The session's being may open one more socket: it holds fewer than the bound, on every process. */
    const roomFor = (session: SessionShape) =>
      Effect.map(beingSockets.socketCount(session.beingId), (open) =>
        open < settings.liveMaxSocketsPerBeing ? Either.right(session) : Either.left<Refusal>(refusals.tooManySockets)
      )
    const wss = yield* Effect.acquireRelease(
      Effect.sync(() => new WebSocketServer({ noServer: true, clientTracking: false, maxPayload: MAX_CLIENT_FRAME })),
      (wss) => Effect.async<void>((resume) => wss.close(() => resume(Effect.void)))
    )
    const run = yield* FiberSet.makeRuntime<never>()

    type SocketMessage = "SocketOpened" | "SocketClosed"
    const tell = (beingId: string, message: SocketMessage, connectionId: string) =>
      message === "SocketOpened"
        ? being(beingId).SocketOpened({ connectionId, processId })
        : being(beingId).SocketClosed({ connectionId })
    const missed = (message: SocketMessage) => (cause: Cause.Cause<unknown>) =>
      Effect.logWarning(`The being actor missed ${message} of a socket`, cause)
    const tellBeing = (beingId: string, message: SocketMessage, connectionId: string) =>
      tell(beingId, message, connectionId).pipe(Effect.catchAllCause(missed(message)))
    /**
     * Told again until the being's entity takes it. After a lapse this process was stalled long enough for the
     * cluster to move its entities to another runner, and a message may fail while they move: a count lost then
     * would leave a being with an open tab offline for good.
     */
    const tellBeingUntilTaken = (beingId: string, message: SocketMessage, connectionId: string) =>
      tell(beingId, message, connectionId).pipe(
        Effect.sandbox,
        Effect.retry(untilTaken),
        Effect.unsandbox,
        Effect.catchAllCause(missed(message))
      )

    const reply = (ws: WebSocket, message: ServerReply) => ws.send(JSON.stringify(message))

    const handle = (ws: WebSocket, connectionId: string, session: SessionShape, text: string) =>
      Effect.gen(function* () {
        const decoded = decodeClientMessage(text)
        if (Either.isLeft(decoded)) {
          return reply(ws, {
            type: "error",
            error: "invalid_message",
            message: 'Send {"type":"subscribe","topic":"<kind>:<id>"} or {"type":"unsubscribe","topic":"<kind>:<id>"}.'
          })
        }
        const { type, topic } = decoded.right
        if (type === "unsubscribe") {
          connections.unfollow(connectionId, topic)
          return reply(ws, { type: "unsubscribed", topic })
        }
        const refusal = yield* topics.check(session.beingId, topic)
        if (refusal !== null) return reply(ws, { type: "error", ...refusal, topic })
        const already = connections.following(connectionId, topic)
        if (!connections.follow(connectionId, topic)) {
          return reply(ws, {
            type: "error",
            error: "too_many_topics",
            message: "This socket follows as many topics as it may; unsubscribe from one first.",
            topic
          })
        }
        reply(ws, { type: "subscribed", topic })
        // In the same turn as the follow: nothing delivered meanwhile is missed or sent twice.
        if (!already) for (const event of topics.catchUp(topic)) ws.send(JSON.stringify(event))
      })

    /** One socket, from its upgrade to its close. */
    const serve = (ws: WebSocket, stream: Duplex, session: SessionShape) =>
      Effect.gen(function* () {
        const connectionId = randomBytes(12).toString("base64url")
        const closed = yield* Deferred.make<void>()
        const inbox = yield* Queue.bounded<string>(MAX_QUEUED_MESSAGES)
        ws.on("close", () => {
          connections.remove(connectionId)
          Deferred.unsafeDone(closed, Effect.void)
        })
        // A socket error is followed by 'close'; listening keeps it from becoming an uncaught exception.
        ws.on("error", () => {})
        ws.on("pong", () => connections.heard(connectionId))
        ws.on("message", (data: RawData, isBinary: boolean) => {
          connections.heard(connectionId)
          const text = isBinary ? "" : String(data)
          if (!inbox.unsafeOffer(text)) ws.close(closeCodes.policy, "too many messages at once")
        })
        // Counted online first, then registered, then greeted: `hello` means "from now on you get events".
        // The count waits at most a while: in a cluster the being's entity may be moving off a runner
        // that died (seconds), and a tab reconnecting after that death must not wait for it to catch up.
        const counted = yield* Effect.forkScoped(tellBeing(session.beingId, "SocketOpened", connectionId))
        yield* Effect.gen(function* () {
          yield* Effect.ignore(Effect.timeout(Fiber.join(counted), COUNT_WAIT))
          if (!(yield* Deferred.isDone(closed))) {
            connections.add({
              id: connectionId,
              beingId: session.beingId,
              sessionId: session.sessionId,
              socket: liveSocket(ws, stream)
            })
            ws.send(JSON.stringify({ type: "hello", beingId: session.beingId, serverTime: yield* nowIso }))
            // A revocation announced between the handshake and `add` found no socket to close: look again. The
            // database out of reach for a moment (a busy machine, a stalled process) does not end a good socket:
            // the reconcile loop looks again within the heartbeat.
            const valid = yield* sessions
              .stillValid([session.sessionId])
              .pipe(
                Effect.catchAllCause((cause) =>
                  Effect.as(
                    Effect.logWarning("A live socket's session could not be checked; the next reconcile will", cause),
                    new Set([session.sessionId])
                  )
                )
              )
            if (!valid.has(session.sessionId)) {
              connections.closeSessions(new Set([session.sessionId]), closeCodes.sessionEnded, "session ended")
            }
          }
          const handleNext = Effect.flatMap(Queue.take(inbox), (text) => handle(ws, connectionId, session, text)).pipe(
            Effect.catchAllCause((cause) => Effect.logWarning("A live client message could not be handled", cause))
          )
          yield* Effect.forkScoped(Effect.forever(handleNext))
          yield* Deferred.await(closed)
        }).pipe(
          // Closed after opened, never before: the being counts its sockets. A socket that failed is closed too, or
          // its being would read online with no socket for as long as this process lives.
          Effect.onExit((exit) =>
            Exit.isInterrupted(exit)
              ? Effect.void
              : Effect.zipRight(Fiber.join(counted), tellBeing(session.beingId, "SocketClosed", connectionId))
          )
        )
      }).pipe(Effect.scoped)

    /** The upgraded socket, or null when the handshake died on the way (ws answers a bad one with 400). */
    const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) =>
      Effect.async<WebSocket | null>((resume) => {
        const gone = () => resume(Effect.succeed(null))
        socket.once("close", gone)
        wss.handleUpgrade(request, socket, head, (ws) => {
          socket.off("close", gone)
          resume(Effect.succeed(ws))
        })
      })

    const accept = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Until ws takes the socket over, a reset connection must not become an uncaught error.
      const ignore = () => {}
      socket.on("error", ignore)
      return Effect.gen(function* () {
        const limited = yield* charged(request)
        if (Option.isSome(limited)) return refuse(socket, limited.value)
        const verdict: Either.Either<SessionShape, Refusal> = yield* admit(request, sessions, policy).pipe(
          Effect.flatMap(Either.match({ onLeft: (refusal) => Effect.succeed(Either.left(refusal)), onRight: roomFor })),
          Effect.catchAllCause((cause) =>
            Effect.as(Effect.logError("A live handshake failed", cause), Either.left(refusals.internal))
          )
        )
        if (Either.isLeft(verdict)) return refuse(socket, verdict.left)
        socket.off("error", ignore)
        const ws = yield* upgrade(request, socket, head)
        if (ws === null) return
        yield* serve(ws, socket, verdict.right).pipe(
          Effect.catchAllCause((cause) =>
            Effect.zipRight(
              Effect.logError("A live socket failed", cause),
              Effect.sync(() => ws.terminate())
            )
          )
        )
      })
    }

    // In the publisher's own turn: the frames are written before the publisher goes on (no hop through a queue).
    yield* bus.listen((delivery) => {
      connections.deliver(delivery.audience, delivery.event)
      if (delivery.audience.kind === "topic") topics.delivered(delivery.audience.topic, delivery.event)
    })

    const revoked = yield* sessions.revoked
    yield* loop(
      "Closing the sockets of revoked sessions",
      Effect.map(Queue.take(revoked), (ids) =>
        connections.closeSessions(new Set(ids), closeCodes.sessionEnded, "session ended")
      )
    )

    // This process's lease lapsed and was taken again: its sockets' rows may have been swept while
    // they stayed open, so each is counted again (a socket closed meanwhile is closed again after).
    const lapsed = yield* lease.lapsed
    const recount = Effect.gen(function* () {
      const counted = connections.sockets()
      yield* Effect.forEach(counted, ({ id, beingId }) => tellBeingUntilTaken(beingId, "SocketOpened", id), {
        discard: true
      })
      const open = new Set(connections.sockets().map((socket) => socket.id))
      const closed = counted.filter((socket) => !open.has(socket.id))
      yield* Effect.forEach(closed, ({ id, beingId }) => tellBeingUntilTaken(beingId, "SocketClosed", id), {
        discard: true
      })
    })
    yield* loop("Counting the live sockets again after a lapsed lease", Effect.zipRight(Queue.take(lapsed), recount))

    const reconcile = Effect.gen(function* () {
      const open = connections.sessionIds()
      const valid = yield* Effect.orDie(sessions.stillValid(open))
      connections.closeSessions(new Set(open.filter((id) => !valid.has(id))), closeCodes.sessionEnded, "session ended")
    })
    yield* loop("Checking the live sockets' sessions", Effect.delay(reconcile, HEARTBEAT_INTERVAL))

    server.routeUpgrades((request, socket, head) => {
      run(accept(request, socket, head))
    })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        server.routeUpgrades(null)
        connections.closeAll(closeCodes.goingAway, "the node is stopping")
      })
    )
    return { reconcile }
  })
).pipe(Layer.provide(Layer.merge(PresenceLease.Default, BeingSocketsRepository.Default)))
