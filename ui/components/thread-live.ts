/**
 * One thread kept current for an element: its messages loaded over HTTP (at the channel's hello,
 * so again after every reconnection) and the topic `thread:<id>` followed while the element is on
 * screen. A Muse reply streaming on the topic is held apart from the stored messages until its
 * `message.created`: its first, empty delta is the thinking state; a socket that starts following
 * mid-reply (a reload) is sent the text so far as one delta, then the rest.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import type { Message, ToolCallChip } from "../../extensions/threads/contract/records.ts"
import { request } from "../api/client.ts"
import { liveChannel } from "../live/live-channel.ts"

/** A reply on its way: empty `text` means the Muse is still thinking. */
export interface StreamingReply {
  readonly messageId: string
  readonly text: string
  readonly chips: ReadonlyArray<ToolCallChip>
}

const byTime = (left: Message, right: Message) =>
  left.createdAt.localeCompare(right.createdAt) || left.id.localeCompare(right.id)

export class ThreadLive implements ReactiveController {
  messages: ReadonlyArray<Message> = []

  streaming: StreamingReply | null = null

  /** Why the messages did not load, in the node's words. */
  error = ""

  loaded = false

  private readonly _host: ReactiveControllerHost

  private _threadId = ""

  private _connected = false

  private _unfollow: (() => void) | null = null

  private _stops: Array<() => void> = []

  /** Counts loads, so only the newest answer lands (a thread switched meanwhile). */
  private _generation = 0

  constructor(host: ReactiveControllerHost) {
    this._host = host
    host.addController(this)
  }

  /** Shows another thread (or none, with ""). */
  set threadId(id: string) {
    if (id === this._threadId) return
    this._threadId = id
    this._reset()
    if (this._connected) this._start()
  }

  get threadId(): string {
    return this._threadId
  }

  hostConnected(): void {
    this._connected = true
    this._stops = [
      liveChannel.on("hello", () => {
        // The channel follows the topic again after this: its catch-up rebuilds the reply so far.
        this.streaming = null
        void this._load()
      }),
      liveChannel.on("message.created", (event) => this._stored(event.message)),
      liveChannel.on("message.delta", (event) => {
        if (event.threadId !== this._threadId || this.messages.some((message) => message.id === event.messageId)) return
        const current = this.streaming
        this.streaming =
          current?.messageId === event.messageId
            ? { ...current, text: current.text + event.delta }
            : { messageId: event.messageId, text: event.delta, chips: [] }
        this._host.requestUpdate()
      }),
      liveChannel.on("message.tool", (event) => {
        if (event.threadId !== this._threadId) return
        const current =
          this.streaming?.messageId === event.messageId
            ? this.streaming
            : { messageId: event.messageId, text: "", chips: [] }
        const chips = current.chips.some((chip) => chip.id === event.toolCall.id)
          ? current.chips.map((chip) => (chip.id === event.toolCall.id ? event.toolCall : chip))
          : [...current.chips, event.toolCall]
        this.streaming = { ...current, chips }
        this._host.requestUpdate()
      })
    ]
    this._start()
  }

  hostDisconnected(): void {
    this._connected = false
    for (const stop of this._stops) stop()
    this._stops = []
    this._unfollow?.()
    this._unfollow = null
  }

  /** A message the element itself posted (the node's answer), shown before its event comes. */
  added(message: Message): void {
    this._stored(message)
  }

  private _start(): void {
    this._unfollow?.()
    this._unfollow = this._threadId === "" ? null : liveChannel.follow(`thread:${this._threadId}`)
    // Before the first hello the hello loads; after it, load now.
    if (liveChannel.status === "live" || liveChannel.status === "reconnecting") void this._load()
  }

  private _reset(): void {
    this._generation++
    this.messages = []
    this.streaming = null
    this.error = ""
    this.loaded = false
    this._host.requestUpdate()
  }

  private _stored(message: Message): void {
    if (message.threadId !== this._threadId) return
    this.messages = [...this.messages.filter((known) => known.id !== message.id), message].sort(byTime)
    if (this.streaming?.messageId === message.id) this.streaming = null
    this._host.requestUpdate()
  }

  private async _load(): Promise<void> {
    const id = this._threadId
    if (id === "") return
    const generation = ++this._generation
    const result = await request((client) => client.threads.listMessages({ path: { id } }))
    if (generation !== this._generation) return
    this.loaded = true
    if (!result.ok) {
      this.error = result.failure.message
    } else {
      this.error = ""
      // What arrived live while the list was on its way stays: messages are never edited, only added.
      const loaded = new Set(result.value.map((message) => message.id))
      this.messages = [...result.value, ...this.messages.filter((message) => !loaded.has(message.id))].sort(byTime)
      if (this.streaming !== null && loaded.has(this.streaming.messageId)) this.streaming = null
    }
    this._host.requestUpdate()
  }
}
