/**
 * The live channel for Lit elements: `LiveEvents` listens to the events its host names while the
 * host is connected, `LiveLoad` loads a place's live data once and again at each reconnection,
 * and `LiveStatusController` keeps the channel's status current for an element that shows it.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import {
  type LiveChannel,
  liveChannel,
  type LiveEventMap,
  type LiveEventType,
  type LiveStatus
} from "./live-channel.ts"

export type LiveHandlers = { readonly [K in LiveEventType]?: (event: LiveEventMap[K]) => void }

export class LiveEvents implements ReactiveController {
  private readonly _handlers: LiveHandlers

  private readonly _channel: LiveChannel

  private _stops: Array<() => void> = []

  constructor(host: ReactiveControllerHost, handlers: LiveHandlers, channel: LiveChannel = liveChannel) {
    this._handlers = handlers
    this._channel = channel
    host.addController(this)
  }

  hostConnected(): void {
    this._stops = Object.entries(this._handlers).map(([type, handler]) =>
      this._channel.on(type as LiveEventType, handler as (event: LiveEventMap[LiveEventType]) => void)
    )
  }

  hostDisconnected(): void {
    for (const stop of this._stops) stop()
    this._stops = []
  }
}

/**
 * When a place whose data the live channel keeps current loads it over HTTP: once when it opens
 * and at every later `hello` (the catch-up on what the tab missed while not connected). While
 * the channel is still connecting (the tab's first seconds) the first load waits for its hello:
 * loading at once and again at the hello would fetch everything twice, and loading only at once
 * could miss what changed before the socket was listening. Should the connection fail instead,
 * it loads then, so the place shows its data while the channel tries again.
 */
export class LiveLoad implements ReactiveController {
  private readonly _load: () => void

  private readonly _channel: LiveChannel

  /** A load was asked for while the channel was connecting: its hello (or its failure) does it. */
  private _waiting = false

  private _stops: Array<() => void> = []

  constructor(host: ReactiveControllerHost, load: () => void, channel: LiveChannel = liveChannel) {
    this._load = load
    this._channel = channel
    host.addController(this)
  }

  hostConnected(): void {
    this._stops = [
      this._channel.on("hello", () => {
        this._waiting = false
        this._load()
      }),
      this._channel.onStatus((status) => {
        if (status !== "reconnecting" || !this._waiting) return
        this._waiting = false
        this._load()
      })
    ]
    this.request()
  }

  hostDisconnected(): void {
    for (const stop of this._stops) stop()
    this._stops = []
    this._waiting = false
  }

  /** Loads now, or at the channel's hello when it is still connecting. */
  request(): void {
    if (this._channel.status === "connecting") this._waiting = true
    else this._load()
  }
}

export class LiveStatusController implements ReactiveController {
  status: LiveStatus

  private readonly _host: ReactiveControllerHost

  private readonly _channel: LiveChannel

  private _stop: (() => void) | null = null

  constructor(host: ReactiveControllerHost, channel: LiveChannel = liveChannel) {
    this._host = host
    this._channel = channel
    this.status = channel.status
    host.addController(this)
  }

  hostConnected(): void {
    this.status = this._channel.status
    this._stop = this._channel.onStatus((status) => {
      this.status = status
      this._host.requestUpdate()
    })
  }

  hostDisconnected(): void {
    this._stop?.()
    this._stop = null
  }
}
