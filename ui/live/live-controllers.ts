/**
 * The live channel for Lit elements: `LiveEvents` listens to the events its host names while the
 * host is connected (a place passes `hello` to catch up over HTTP), and `LiveStatusController`
 * keeps the channel's status current for an element that shows it.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import { type LiveChannel, liveChannel, type LiveEventMap, type LiveEventType, type LiveStatus } from "./live-channel.ts"

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
