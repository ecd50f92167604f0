/**
 * Anchor: `GET /api/auth/me` on a minimal Fastify app (no plugins, no response schema, logger
 * off) — what a mainstream Node framework costs for the same work as the node.
 * Run as its own process by test/bench/run.ts: `node fastify-me.ts --db <node.db> --port <n>`.
 */
import Fastify from "fastify"
import { anchorArgs, openMeWork, securityHeaders, unauthorizedBody } from "./me-work.ts"

const { db, port } = anchorArgs()
const work = openMeWork(db)

const app = Fastify({ logger: false })

app.get("/api/auth/me", (request, reply) => {
  const body = work.me(request.headers.cookie)
  reply.headers(securityHeaders).type("application/json")
  if (body === null) return reply.code(401).send(unauthorizedBody)
  return reply.send(body)
})

app.get("/api/health", (_request, reply) => {
  reply.headers(securityHeaders).type("application/json")
  return reply.send(work.health())
})

await app.listen({ port, host: "127.0.0.1" })
console.log(`listening at http://127.0.0.1:${port}`)
