/**
 * Reading a JSON request body within its route's limit, before the contract decodes it. The
 * platform reads a body lazily and whole (one string, however long), and on its own limit it
 * destroys the request, which takes the socket and so the 413 with it. Here the bytes are counted
 * as they arrive; past the limit the request is paused (the client's writes back up in TCP, not
 * in our memory) so that the 413 can be written before the connection closes. A body read here
 * is handed on to the contract in a request that answers it without touching the socket again.
 */
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type { IncomingMessage } from "node:http"

export type BodyRead =
  | { readonly _tag: "Read"; readonly bytes: Buffer }
  | { readonly _tag: "TooLarge" }
  | { readonly _tag: "Broken" }

export const readBounded = (source: IncomingMessage, limit: number): Effect.Effect<BodyRead> =>
  Effect.async<BodyRead>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    const done = (result: BodyRead) => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onBroken)
      source.off("aborted", onBroken)
      resume(Effect.succeed(result))
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) return void chunks.push(chunk)
      source.pause()
      done({ _tag: "TooLarge" })
    }
    const onEnd = () => done({ _tag: "Read", bytes: Buffer.concat(chunks, size) })
    const onBroken = () => done({ _tag: "Broken" })
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onBroken)
    source.once("aborted", onBroken)
    return Effect.sync(() => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onBroken)
      source.off("aborted", onBroken)
    })
  })

/**
 * Whether JSON text nests arrays and objects deeper than `max`: one pass over the characters,
 * strings skipped, so a hostile depth is refused before anything recurses over it.
 */
export const nestsDeeperThan = (text: string, max: number): boolean => {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c)
        index++ // a backslash escapes the next character
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      if (++depth > max) return true
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return false
}

/**
 * The request with its body already read: everything else (headers, cookies, address, the
 * response it belongs to) is the original's, through the prototype.
 */
export const withReadBody = (
  request: HttpServerRequest.HttpServerRequest,
  bytes: Buffer,
  json: unknown
): HttpServerRequest.HttpServerRequest =>
  Object.create(request, {
    text: { value: Effect.sync(() => bytes.toString("utf8")) },
    json: { value: Effect.succeed(json) },
    arrayBuffer: { value: Effect.sync(() => new Uint8Array(bytes).buffer) },
    stream: { value: Stream.succeed(new Uint8Array(bytes)) }
  })
