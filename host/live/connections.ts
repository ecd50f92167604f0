/**
 * The live connection registry behind the kernel's `LiveConnections` (kernel/live/live-connections.ts):
 * one record per open socket, grouped by being, by session and by followed topic, so an event
 * reaches exactly its audience. It knows sockets only through
 * `LiveSocket`, so tests drive it with in-memory sockets; its operations are plain functions
 * because socket callbacks (a pong, a frame) call them. The heartbeat runs on Effect's Clock:
 * every 30 s each socket is pinged, and one that has not been heard from since the previous
 * ping is terminated.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  LiveConnections,
  type ConnectionInfo,
  type LiveConnectionsShape,
  type LiveSocket
} from "../../kernel/live/live-connections.ts"
import { HEARTBEAT_INTERVAL, MAX_TOPICS } from "./contract/protocol.ts"

export type { LiveSocket }

interface Connection extends ConnectionInfo {
  /** Heard from (a pong or any frame) since the last ping. */
  heard: boolean
  readonly topics: Set<string>
}

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  const set = index.get(key)
  if (set === undefined) index.set(key, new Set([value]))
  else set.add(value)
}

const removeFrom = <K, V>(index: Map<K, Set<V>>, key: K, value: V) => {
  const set = index.get(key)
  if (set === undefined) return
  set.delete(value)
  if (set.size === 0) index.delete(key)
}

export const makeLiveConnections = (): LiveConnectionsShape => {
  const byId = new Map<string, Connection>()
  const byBeing = new Map<string, Set<Connection>>()
  const byTopic = new Map<string, Set<Connection>>()

  const remove = (id: string) => {
    const connection = byId.get(id)
    if (connection === undefined) return
    byId.delete(id)
    removeFrom(byBeing, connection.beingId, connection)
    for (const topic of connection.topics) removeFrom(byTopic, topic, connection)
  }

  const sendAll = (connections: Iterable<Connection> | undefined, frame: Buffer) => {
    if (connections === undefined) return
    for (const connection of connections) connection.socket.send(frame)
  }

  const closeWhere = (predicate: (connection: Connection) => boolean, code: number, reason: string) => {
    for (const connection of [...byId.values()]) {
      if (!predicate(connection)) continue
      remove(connection.id)
      connection.socket.close(code, reason)
    }
  }

  return {
    add: (info) => {
      const connection: Connection = { ...info, heard: true, topics: new Set() }
      byId.set(info.id, connection)
      addTo(byBeing, info.beingId, connection)
    },
    remove,
    heard: (id) => {
      const connection = byId.get(id)
      if (connection !== undefined) connection.heard = true
    },
    follow: (id, topic) => {
      const connection = byId.get(id)
      if (connection === undefined) return true
      if (connection.topics.has(topic)) return true
      if (connection.topics.size >= MAX_TOPICS) return false
      connection.topics.add(topic)
      addTo(byTopic, topic, connection)
      return true
    },
    following: (id, topic) => byId.get(id)?.topics.has(topic) ?? false,
    unfollow: (id, topic) => {
      const connection = byId.get(id)
      if (connection === undefined || !connection.topics.delete(topic)) return
      removeFrom(byTopic, topic, connection)
    },
    deliver: (audience, event) => {
      const frame = Buffer.from(JSON.stringify(event))
      switch (audience.kind) {
        case "being":
          return sendAll(byBeing.get(audience.beingId), frame)
        case "topic":
          return sendAll(byTopic.get(audience.topic), frame)
        case "all":
          return sendAll(byId.values(), frame)
      }
    },
    closeSessions: (sessionIds, code, reason) =>
      closeWhere((connection) => sessionIds.has(connection.sessionId), code, reason),
    closeAll: (code, reason) => closeWhere(() => true, code, reason),
    sockets: () => [...byId.values()].map(({ id, beingId }) => ({ id, beingId })),
    sessionIds: () => [...new Set([...byId.values()].map((connection) => connection.sessionId))],
    counts: () => ({ connections: byId.size, beings: byBeing.size }),
    beat: Effect.sync(() => {
      for (const connection of [...byId.values()]) {
        if (connection.heard) {
          connection.heard = false
          connection.socket.ping()
        } else {
          remove(connection.id)
          connection.socket.terminate()
        }
      }
    })
  }
}

/** The registry with its heartbeat running for as long as the layer lives. */
export const LiveConnectionsLive = Layer.scoped(
  LiveConnections,
  Effect.gen(function* () {
    const connections = makeLiveConnections()
    yield* Effect.forkScoped(Effect.forever(Effect.delay(connections.beat, HEARTBEAT_INTERVAL)))
    return connections
  })
)
