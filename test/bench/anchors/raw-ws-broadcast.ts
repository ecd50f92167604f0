/**
 * Anchor of the live-channel section: the plain program a user of `ws` writes to fan an event out
 * to every open socket. A POST to /event carries the event; the server parses it and broadcasts it
 * to every client as the library's README does, then answers 204. Nothing of the node is loaded.
 * Run as its own process by test/bench/live-channel.ts: `node raw-ws-broadcast.ts --port <n>`.
 */
import { createServer } from "node:http"
import { WebSocketServer } from "ws"

const port = Number(process.argv[process.argv.indexOf("--port") + 1])

const server = createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/event") {
    res.writeHead(404).end()
    return
  }
  const chunks: Array<Buffer> = []
  req.on("data", (chunk: Buffer) => chunks.push(chunk))
  req.on("end", () => {
    const event: unknown = JSON.parse(Buffer.concat(chunks).toString())
    const frame = Buffer.from(JSON.stringify(event))
    for (const client of wss.clients) client.send(frame, { binary: false })
    res.writeHead(204).end()
  })
})
const wss = new WebSocketServer({ server })
wss.on("connection", (socket) => socket.send(JSON.stringify({ type: "hello" })))

server.listen(port, "127.0.0.1", () => console.log(`listening at http://127.0.0.1:${port}`))
