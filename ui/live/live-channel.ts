/**
 * The tab's one WebSocket to the node's live channel (`/api/ws`), shared by the whole app. The
 * shell starts it once someone is signed in and stops it when they sign out. Frames are read
 * with the contract's schemas (the event union of kernel/event-union.ts; a signal's record with the
 * desktop's `Signal`); a frame that does not read, or an event this app does not know yet, is
 * skipped, as the contract asks of clients.
 *
 * Places listen by event type (`on`, or the `LiveEvents` controller). Every `hello` (the first
 * connection and each reconnection) is their cue to catch up: whatever changed while the tab
 * was not connected was not sent to it, so a place that shows live data loads it again over
 * HTTP then. A place that shows a topic's events (a thread's reply streaming) `follow`s it; the
 * channel asks the node for the topic again on every new socket.
 *
 * A dropped connection is tried again by itself, after 1 s, then 2, 4, 8, 16 and at most 30 s,
 * each wait cut to between half and all of that step at random, so the tabs of a restarted node
 * do not all knock at once; while the browser says it is offline it waits for `online` instead,
 * and it closes the socket as soon as the browser goes offline (a socket on a lost network can
 * stay open for minutes, telling nothing). Close code 4001 means the session ended: no retry,
 * the shell is told (`session-lost`) and sends the person to log in. A handshake the node
 * refuses (HTTP 401 after the session ended while the tab was away) looks to the browser like
 * any failed connection, so after an attempt that never got its `hello` the channel asks the
 * node who is signed in; a 401 there is announced by the client as `session-lost` too.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type ClientMessage, closeCodes, LIVE_PATH } from "../../host/live/contract/protocol.ts"
import { NodeEvent } from "../../host/contract/events.ts"
import { request } from "../api/client.ts"
import { retryDelay } from "../components/backoff.ts"
import { fireEvent } from "../shell/events.ts"

/**
 * `off`: nobody signed in. `connecting`: the first attempt. `live`: greeted. `reconnecting`: waiting to try again, or
 * trying.
 */
export type LiveStatus = "off" | "connecting" | "live" | "reconnecting"

/** Every event a listener may get, by type: the contract's union. */
export type LiveEventMap = { [E in NodeEvent as E["type"]]: E }
export type LiveEventType = keyof LiveEventMap
export type LiveEvent = NodeEvent

const decodeEvent = Schema.decodeUnknownEither(Schema.parseJson(NodeEvent))

/**
 * Reads one frame; null for one this app does not take (not an event, an unknown type, a record that does not read).
 */
const readFrame = (text: string): LiveEvent | null => {
  const event = decodeEvent(text)
  return Either.isRight(event) ? event.right : null
}

type Listener<K extends LiveEventType> = (event: LiveEventMap[K]) => void

export class LiveChannel {
  #status: LiveStatus = "off"

  #socket: WebSocket | null = null

  /** Failed attempts since the last `hello`: how long the next wait is. */
  #attempt = 0

  #retryTimer: ReturnType<typeof setTimeout> | undefined

  readonly #listeners = new Map<LiveEventType, Set<(event: never) => void>>()

  readonly #statusListeners = new Set<(status: LiveStatus) => void>()

  /** Topics followed (`thread:<id>`), each with how many places follow it. */
  readonly #topics = new Map<string, number>()

  get status(): LiveStatus {
    return this.#status
  }

  /** Connects, unless already started. The shell calls it once someone is signed in. */
  start(): void {
    if (this.#status !== "off") return
    this.#attempt = 0
    window.addEventListener("online", this.#onOnline)
    window.addEventListener("offline", this.#onOffline)
    this.#setStatus("connecting")
    this.#connect()
  }

  /** Closes the socket and stops trying. The shell calls it when the person signs out. */
  stop(): void {
    if (this.#status === "off") return
    window.removeEventListener("online", this.#onOnline)
    window.removeEventListener("offline", this.#onOffline)
    clearTimeout(this.#retryTimer)
    this.#drop(1000, "signed out")
    this.#setStatus("off")
  }

  /** Calls `listener` with every event of `type`; answers the function that stops it. */
  on<K extends LiveEventType>(type: K, listener: Listener<K>): () => void {
    let listeners = this.#listeners.get(type)
    if (listeners === undefined) {
      listeners = new Set()
      this.#listeners.set(type, listeners)
    }
    listeners.add(listener as (event: never) => void)
    return () => listeners.delete(listener as (event: never) => void)
  }

  /**
   * Follows a topic (`thread:<id>`): its events reach the listeners of their types like any other.
   * The topic is asked for now if the socket is greeted, and again after every later hello (a new
   * socket follows nothing), just after the hello's listeners have run, so a place that resets
   * at the hello gets the topic's catch-up after it. Answers the function that stops following.
   */
  follow(topic: string): () => void {
    const count = this.#topics.get(topic) ?? 0
    this.#topics.set(topic, count + 1)
    if (count === 0 && this.#status === "live") this.#send({ type: "subscribe", topic })
    let followed = true
    return () => {
      if (!followed) return
      followed = false
      const left = (this.#topics.get(topic) ?? 1) - 1
      if (left > 0) {
        this.#topics.set(topic, left)
        return
      }
      this.#topics.delete(topic)
      if (this.#status === "live") this.#send({ type: "unsubscribe", topic })
    }
  }

  /** Calls `listener` with each new status; answers the function that stops it. */
  onStatus(listener: (status: LiveStatus) => void): () => void {
    this.#statusListeners.add(listener)
    return () => this.#statusListeners.delete(listener)
  }

  #connect(): void {
    clearTimeout(this.#retryTimer)
    if (!navigator.onLine) return // `online` connects again
    const url = new URL(LIVE_PATH, window.location.href)
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:"
    const socket = new WebSocket(url)
    this.#socket = socket
    let greeted = false
    socket.addEventListener("message", (message) => {
      if (this.#socket !== socket || typeof message.data !== "string") return
      const event = readFrame(message.data)
      if (event === null) return
      if (event.type === "hello") {
        greeted = true
        this.#attempt = 0
        this.#setStatus("live")
      }
      this.#dispatch(event)
      if (event.type === "hello") for (const topic of this.#topics.keys()) this.#send({ type: "subscribe", topic })
    })
    socket.addEventListener("close", (close) => {
      if (this.#socket !== socket) return
      this.#socket = null
      if (close.code === closeCodes.sessionEnded) {
        this.stop()
        fireEvent(window, "session-lost", { message: "Your session has ended." })
        return
      }
      this.#setStatus("reconnecting")
      if (!greeted) void this.#checkSession()
      this.#retryTimer = setTimeout(() => this.#connect(), retryDelay(this.#attempt++))
    })
  }

  /** A handshake refused for want of a session fails like a network error; the HTTP side tells them apart. */
  async #checkSession(): Promise<void> {
    const result = await request((client) => client.auth.me())
    // `request` has announced a 401 as `session-lost`, and the shell sends the person to log in.
    if (!result.ok && result.failure.code === "unauthorized") this.stop()
  }

  #send(message: ClientMessage): void {
    if (this.#socket?.readyState === WebSocket.OPEN) this.#socket.send(JSON.stringify(message))
  }

  /** Forgets the socket first, so its close event finds it is no longer the channel's and does nothing. */
  #drop(code: number, reason: string): void {
    const socket = this.#socket
    this.#socket = null
    socket?.close(code, reason)
  }

  readonly #onOnline = (): void => {
    if (this.#socket === null) this.#connect()
  }

  readonly #onOffline = (): void => {
    if (this.#socket === null) return
    this.#drop(1000, "offline")
    clearTimeout(this.#retryTimer)
    this.#setStatus("reconnecting")
  }

  #dispatch(event: LiveEvent): void {
    for (const listener of this.#listeners.get(event.type) ?? []) {
      try {
        ;(listener as (event: LiveEvent) => void)(event)
      } catch (error) {
        // One place's broken listener must not keep the event from the others.
        reportError(error)
      }
    }
  }

  #setStatus(status: LiveStatus): void {
    if (status === this.#status) return
    this.#status = status
    for (const listener of this.#statusListeners) listener(status)
  }
}

/** The app's one channel. */
export const liveChannel = new LiveChannel()
