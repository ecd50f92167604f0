/**
 * HTTP over a bare socket, for requests an HTTP client library would tidy away: request targets
 * spelled as written (`//api`, `%6c`, `;x`, absolute form), and bodies streamed chunk by chunk
 * for as long as the server keeps reading.
 */
import { connect, type Socket } from "node:net"

export interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string>
  /** The body read as JSON, or the text when it is not JSON. */
  readonly body: unknown
  readonly text: string
}

const parseAnswer = (raw: string): RawAnswer | null => {
  const end = raw.indexOf("\r\n\r\n")
  if (end === -1) return null
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n")
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(":")
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers["content-length"] ?? Number.NaN)
  const text = raw.slice(end + 4)
  if (!Number.isNaN(length) && Buffer.byteLength(text) < length) return null
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: Number(statusLine!.split(" ")[1]), headers, body, text }
}

const open = (url: string): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once("error", reject)
  })

/** Sends `head` (request line and headers, without the blank line) and `body`; answers the first response. */
export const rawRequest = async (url: string, head: string, body = ""): Promise<RawAnswer> => {
  const socket = await open(url)
  return new Promise((resolve, reject) => {
    let received = ""
    socket.on("data", (data) => {
      received += data.toString("utf8")
      const answer = parseAnswer(received)
      if (answer !== null) {
        socket.destroy()
        resolve(answer)
      }
    })
    socket.once("error", reject)
    socket.once("close", () => reject(new Error(`the connection closed before an answer: ${JSON.stringify(received)}`)))
    socket.write(`${head}\r\nHost: ${new URL(url).host}\r\nConnection: close\r\n\r\n${body}`)
  })
}

export interface StreamedAnswer {
  readonly answer: RawAnswer | null
  /** Body bytes written before the server answered or closed. */
  readonly bytesSent: number
}

/**
 * Streams up to `totalBytes` of body in 64 KB chunks (chunked transfer encoding unless
 * `contentLength` is given), honouring backpressure, and stops as soon as an answer arrives.
 * For refusals: it resolves once the server has closed the connection, as it must after one.
 */
export const streamBody = async (
  url: string,
  head: string,
  totalBytes: number,
  options: {
    readonly contentLength?: number
    readonly chunk?: Buffer
    /** Body bytes sent before the repeated chunks (a multipart part's head, say). */
    readonly prefix?: Buffer
  } = {}
): Promise<StreamedAnswer> => {
  const socket = await open(url)
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, 0x20)
  const chunked = options.contentLength === undefined
  const framed = (bytes: Buffer) =>
    chunked ? Buffer.concat([Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from("\r\n")]) : bytes
  let received = ""
  let answer: RawAnswer | null = null
  let closed = false
  let bytesSent = 0
  const finished = new Promise<void>((resolve) => {
    socket.on("data", (data) => {
      received += data.toString("utf8")
      answer ??= parseAnswer(received)
      if (answer !== null) resolve()
    })
    socket.once("close", () => {
      closed = true
      resolve()
    })
  })
  socket.on("error", () => {})
  const framing = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${options.contentLength}`
  socket.write(`${head}\r\nHost: ${new URL(url).host}\r\n${framing}\r\n\r\n`)
  if (options.prefix !== undefined) {
    socket.write(framed(options.prefix))
    bytesSent += options.prefix.length
  }
  const stopped = () => answer !== null || closed
  while (bytesSent < totalBytes && !stopped()) {
    const frame = framed(chunk)
    bytesSent += chunk.length
    if (!socket.write(frame)) {
      await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), finished])
    }
  }
  if (!stopped() && chunked) socket.write("0\r\n\r\n")
  await finished
  // The caller expects a refusal, after which the server must end the connection: wait for it.
  if (!closed) await new Promise((resolve) => socket.once("close", resolve))
  return { answer, bytesSent }
}
