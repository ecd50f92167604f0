/**
 * Anchor: `GET /api/auth/me` on bare node:http — the floor of what this work costs on Node.
 * Run as its own process by test/bench/run.ts: `node raw-me.ts --db <node.db> --port <n>`.
 */
import { createServer } from "node:http"
import { anchorArgs, openMeWork, securityHeaders, unauthorizedBody } from "./me-work.ts"

const { db, port } = anchorArgs()
const work = openMeWork(db)

const send = (res: import("node:http").ServerResponse, status: number, body: string) => {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    ...securityHeaders
  })
  res.end(body)
}

const server = createServer((req, res) => {
  if (req.method === "GET" && req.url === "/api/auth/me") {
    const body = work.me(req.headers.cookie)
    return body === null ? send(res, 401, unauthorizedBody) : send(res, 200, body)
  }
  if (req.method === "GET" && req.url === "/api/health") return send(res, 200, work.health())
  send(res, 404, JSON.stringify({ error: "not_found", message: "There is no such route on this node." }))
})

server.listen(port, "127.0.0.1", () => console.log(`listening at http://127.0.0.1:${port}`))
