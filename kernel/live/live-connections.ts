/**
 * The live channel's connection registry as features see it: one record per open socket, grouped
 * by being, by session and by followed topic, so an event reaches exactly its audience. The tag is
 * here so a feature (health counts the sockets) reads it without reaching the host; the registry
 * and its heartbeat are the host's (host/live/connections.ts). Its operations are plain functions
 * because socket callbacks (a pong, a frame) call them.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Audience, BusEvent } from "../contract/events.ts"

/** What the registry needs of a socket. `send` takes one JSON text frame, already encoded. */
export interface LiveSocket {
  readonly send: (frame: Buffer) => void
  readonly ping: () => void
  readonly close: (code: number, reason: string) => void
  readonly terminate: () => void
}

export interface ConnectionInfo {
  readonly id: string
  readonly beingId: string
  readonly sessionId: string
  readonly socket: LiveSocket
}

export interface LiveConnectionsShape {
  readonly add: (info: ConnectionInfo) => void
  /** Forgets a socket; it gets no further events. Safe to call twice. */
  readonly remove: (id: string) => void
  /** The socket answered a ping or sent a frame. */
  readonly heard: (id: string) => void
  /** False when the socket already follows as many topics as it may. */
  readonly follow: (id: string, topic: string) => boolean
  readonly unfollow: (id: string, topic: string) => void
  /** Whether the socket follows the topic already. */
  readonly following: (id: string, topic: string) => boolean
  /** Sends one event to its audience; the frame is encoded once for every socket. */
  readonly deliver: (audience: Audience, event: BusEvent) => void
  /** Closes (and forgets) every socket opened with one of these sessions. */
  readonly closeSessions: (sessionIds: ReadonlySet<string>, code: number, reason: string) => void
  /** Closes (and forgets) every socket: the node is stopping. */
  readonly closeAll: (code: number, reason: string) => void
  /** The sessions behind the open sockets, each once. */
  readonly sessionIds: () => ReadonlyArray<string>
  readonly counts: () => { readonly connections: number; readonly beings: number }
  /** One heartbeat: terminate the sockets silent since the last one, ping the rest. */
  readonly beat: Effect.Effect<void>
  /** Every socket of this process with its being (presence counts them again after a lapsed lease). */
  readonly sockets: () => ReadonlyArray<{ readonly id: string; readonly beingId: string }>
}

export class LiveConnections extends Context.Tag("kernel/LiveConnections")<LiveConnections, LiveConnectionsShape>() {}
