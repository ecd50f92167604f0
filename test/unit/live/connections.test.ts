import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { once } from "node:events"
import type { IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { WebSocket, WebSocketServer } from "ws"
import { LiveConnections } from "../../../kernel/live/live-connections.ts"
import { LiveConnectionsLive, makeLiveConnections, type LiveSocket } from "../../../host/live/connections.ts"
import { MAX_TOPICS } from "../../../host/live/contract/protocol.ts"
import { liveSocket } from "../../../host/live/ws-socket.ts"

/** An in-memory socket that records what the registry did to it. */
const memorySocket = () => {
  const record = {
    frames: [] as Array<unknown>,
    pings: 0,
    closed: null as null | { code: number; reason: string },
    terminated: false
  }
  const socket: LiveSocket = {
    send: (frame) => record.frames.push(JSON.parse(frame.toString())),
    ping: () => {
      record.pings += 1
    },
    close: (code, reason) => {
      record.closed = { code, reason }
    },
    terminate: () => {
      record.terminated = true
    }
  }
  return { socket, record }
}

const ambient = (hint: string) => ({
  type: "ambient" as const,
  mood: { valence: 0, arousal: 0.3, label: "calm" },
  hint
})

describe("the heartbeat", () => {
  it.scoped("pings every socket every 30 s and terminates one that stayed silent since the last ping", () =>
    Effect.gen(function* () {
      const connections = yield* LiveConnections
      const chatty = memorySocket()
      const silent = memorySocket()
      connections.add({ id: "chatty", beingId: "b1", sessionId: "s1", socket: chatty.socket })
      connections.add({ id: "silent", beingId: "b1", sessionId: "s1", socket: silent.socket })

      yield* TestClock.adjust("29 seconds")
      expect([chatty.record.pings, silent.record.pings]).toEqual([0, 0])
      yield* TestClock.adjust("1 second")
      expect([chatty.record.pings, silent.record.pings]).toEqual([1, 1])

      connections.heard("chatty")
      yield* TestClock.adjust("30 seconds")
      expect(chatty.record.pings).toBe(2)
      expect(chatty.record.terminated).toBe(false)
      expect(silent.record.terminated).toBe(true)
      expect(silent.record.pings).toBe(1)
      expect(connections.counts()).toEqual({ connections: 1, beings: 1 })

      // The survivor is forgotten too once it falls silent.
      yield* TestClock.adjust("30 seconds")
      expect(chatty.record.terminated).toBe(true)
      expect(connections.counts()).toEqual({ connections: 0, beings: 0 })
    }).pipe(Effect.provide(LiveConnectionsLive))
  )

  it.scoped("over real sockets: a client that answers pings stays, one that does not is terminated", () =>
    Effect.gen(function* () {
      const connections = yield* LiveConnections
      const wss = yield* Effect.acquireRelease(
        Effect.promise(async () => {
          const server = new WebSocketServer({ port: 0, host: "127.0.0.1" })
          await once(server, "listening")
          return server
        }),
        (server) => Effect.promise(() => new Promise((resolve) => server.close(resolve)))
      )
      const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
      const connect = (id: string, autoPong: boolean) =>
        Effect.promise(async () => {
          const accepted = once(wss, "connection")
          const client = new WebSocket(url, { autoPong })
          const [server, request] = (await accepted) as [WebSocket, IncomingMessage]
          await once(client, "open")
          server.on("pong", () => connections.heard(id))
          connections.add({ id, beingId: "b1", sessionId: "s1", socket: liveSocket(server, request.socket) })
          return { client, server }
        })
      const answering = yield* connect("answering", true)
      const silent = yield* connect("silent", false)

      const ponged = once(answering.server, "pong")
      const pinged = once(silent.client, "ping")
      yield* TestClock.adjust("30 seconds")
      yield* Effect.promise(() => Promise.all([ponged, pinged]))

      const silentClosed = once(silent.client, "close")
      yield* TestClock.adjust("30 seconds")
      const [code] = yield* Effect.promise(() => silentClosed)
      expect(code).toBe(1006)
      expect(answering.client.readyState).toBe(WebSocket.OPEN)
      expect(connections.counts().connections).toBe(1)
      answering.client.terminate()
    }).pipe(Effect.provide(LiveConnectionsLive))
  )

  it.scoped("stops when the registry's layer is released", () =>
    Effect.gen(function* () {
      const quiet = memorySocket()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const connections = yield* LiveConnections
          connections.add({ id: "a", beingId: "b1", sessionId: "s1", socket: quiet.socket })
        }).pipe(Effect.provide(LiveConnectionsLive))
      )
      yield* TestClock.adjust("5 minutes")
      expect(quiet.record.pings).toBe(0)
    })
  )
})

describe("the registry", () => {
  it("sends a being's event to its sockets only, a broadcast to all, a topic event to its followers", () => {
    const connections = makeLiveConnections()
    const a1 = memorySocket()
    const a2 = memorySocket()
    const b = memorySocket()
    connections.add({ id: "a1", beingId: "a", sessionId: "sa", socket: a1.socket })
    connections.add({ id: "a2", beingId: "a", sessionId: "sa", socket: a2.socket })
    connections.add({ id: "b", beingId: "b", sessionId: "sb", socket: b.socket })
    expect(connections.follow("a2", "thread:1")).toBe(true)

    connections.deliver({ kind: "being", beingId: "a" }, ambient("for a"))
    connections.deliver({ kind: "all" }, ambient("for all"))
    connections.deliver({ kind: "topic", topic: "thread:1" }, ambient("on the thread"))
    connections.unfollow("a2", "thread:1")
    connections.deliver({ kind: "topic", topic: "thread:1" }, ambient("after leaving"))

    const hints = (record: { frames: Array<unknown> }) =>
      record.frames.map((frame) => (frame as { hint: unknown }).hint)
    expect(hints(a1.record)).toEqual(["for a", "for all"])
    expect(hints(a2.record)).toEqual(["for a", "for all", "on the thread"])
    expect(hints(b.record)).toEqual(["for all"])
  })

  it("closes and forgets every socket of the given sessions, and nothing else", () => {
    const connections = makeLiveConnections()
    const kept = memorySocket()
    const ended = memorySocket()
    connections.add({ id: "kept", beingId: "a", sessionId: "s1", socket: kept.socket })
    connections.add({ id: "ended", beingId: "a", sessionId: "s2", socket: ended.socket })
    expect([...connections.sessionIds()].sort()).toEqual(["s1", "s2"])
    connections.closeSessions(new Set(["s2"]), 4001, "session ended")
    expect(ended.record.closed).toEqual({ code: 4001, reason: "session ended" })
    expect(kept.record.closed).toBeNull()
    connections.deliver({ kind: "being", beingId: "a" }, ambient("later"))
    expect(ended.record.frames).toEqual([])
    expect(kept.record.frames).toHaveLength(1)
  })

  it("lets one socket follow at most MAX_TOPICS topics", () => {
    const connections = makeLiveConnections()
    connections.add({ id: "a", beingId: "a", sessionId: "s", socket: memorySocket().socket })
    for (let i = 0; i < MAX_TOPICS; i++) expect(connections.follow("a", `thread:${i}`)).toBe(true)
    expect(connections.follow("a", "thread:one-too-many")).toBe(false)
    expect(connections.follow("a", "thread:0")).toBe(true)
  })
})
